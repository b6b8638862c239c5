//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Per-block bins in shared memory with atomicAdd_block, then one device-scoped atomicAdd per bin into the global histogram.
__global__ void bins_block_scope(unsigned int *bins) {
    __shared__ unsigned int local[16];
    unsigned int t = threadIdx.x;
    if (t < 16)
        local[t] = 0;
    __syncthreads();
    atomicAdd_block(&local[t % 16], 1u);
    __syncthreads();
    if (t < 16)
        atomicAdd(&bins[t], local[t]);
}
