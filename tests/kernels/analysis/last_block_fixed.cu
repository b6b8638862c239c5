//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The last-block pattern: each block writes its partial sum, fences, and takes a ticket; the block that takes the last one adds the partial sums.
__global__ void last_block_sum(const int *in, int *partial, unsigned int *count, int *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        unsigned int ticket = atomicInc(count, gridDim.x);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned int i = 0; i < gridDim.x; i++)
            sum += partial[i];
        *total = sum;
    }
}
