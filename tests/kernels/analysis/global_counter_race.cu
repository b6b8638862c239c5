//xfail
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Block 0 zeroes a global counter that all blocks atomicAdd into: a plain write against other blocks' atomics (inter-block race).
#define N 512

// in holds N ints; count is a single int.
__global__ void count_matches(const int *in, int key, int *count) {
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *count = 0; // RACE
    __syncthreads();
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < N)
        atomicAdd(count, in[g] == key ? 1 : 0); // RACE
}
