//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// All blocks atomicAdd into a global counter that the host zeroes before the launch (cudaMemset); no plain access to it.
#define N 512

// in holds N ints; count is a single int, zeroed by the host.
__global__ void count_matches(const int *in, int key, int *count) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < N)
        atomicAdd(count, in[g] == key ? 1 : 0);
}
