//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// All threads atomicAdd a shared counter; a barrier separates the atomics from thread 0's plain read.
__global__ void count_positive(const int *in, int *counts) {
    __shared__ int count;
    int t = threadIdx.x;
    if (t == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, in[blockIdx.x * blockDim.x + t] > 0 ? 1 : 0);
    __syncthreads();
    if (t == 0)
        counts[blockIdx.x] = count;
}
