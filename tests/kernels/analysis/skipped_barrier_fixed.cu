//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// The barrier under 'if (blockDim.x > 16)' is reached by every thread of a block or by none: the condition is the same in all of them.
__global__ void skip_barrier(int *g) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = g[t];
    if (blockDim.x > 16)
        __syncthreads();
    g[t] = s[63 - t];
}
