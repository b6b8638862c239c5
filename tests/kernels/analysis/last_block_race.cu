//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The last-block pattern without its fence: the last block may add partial sums whose writes it cannot see yet (the race hides behind the ticket's value: the static analysis leaves it to the run).
__global__ void last_block_sum(const int *in, int *partial, unsigned int *count, int *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x]; // RACE
        unsigned int ticket = atomicInc(count, gridDim.x);
        last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (unsigned int i = 0; i < gridDim.x; i++)
            sum += partial[i]; // RACE
        *total = sum;
    }
}
