//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// const, volatile and __restrict__ qualified parameters and locals, and a volatile __shared__ flag.
__global__ void saxpy_restrict(int n, const float a, const float *__restrict__ x, float *__restrict__ y,
                               volatile int *progress) {
    volatile __shared__ int block_done;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float *const xp = x;
    if (threadIdx.x == 0)
        block_done = 0;
    __syncthreads();
    if (i < n)
        y[i] = a * xp[i] + y[i];
    __syncthreads();
    if (threadIdx.x == 0) {
        block_done = 1;
        progress[blockIdx.x] = block_done;
    }
}
