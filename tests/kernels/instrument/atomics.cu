// Atomics on shared memory wrap their pointer argument (GMRACE_ATOMIC); a global atomic taking
// part in an unknown pair is listed as unchecked. Without --all only unknown accesses are
// recorded: the data-dependent bins.
__global__ void atomics(const int *in, int *hist, int *total) {
    __shared__ int bins[16];
    __shared__ int winner;
    int t = threadIdx.x;
    if (t < 16)
        bins[t] = 0;
    if (t == 0)
        winner = -1;
    __syncthreads();
    int *b = &bins[in[t] & 15];
    atomicAdd(b, 1);
    atomicCAS(&winner, -1, t);
    bins[in[t] & 15] = 7;
    __syncthreads();
    if (t < 16)
        atomicAdd(&hist[in[t] & 15], bins[t]);
    atomicExch(total, winner);
}
