//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Shared-memory histogram with atomicAdd on the bins: race-free for every input (the bin index is data-dependent).
#define BINS 16
#define PER_THREAD 4

// in holds gridDim.x * blockDim.x * PER_THREAD values; hist holds gridDim.x * BINS counts.
__global__ void histogram(const unsigned *in, unsigned *hist) {
    __shared__ unsigned s_hist[BINS];
    int t = threadIdx.x;
    if (t < BINS)
        s_hist[t] = 0;
    __syncthreads();
    int base = (blockIdx.x * blockDim.x + t) * PER_THREAD;
    for (int k = 0; k < PER_THREAD; ++k)
        atomicAdd(&s_hist[in[base + k] % BINS], 1u);
    __syncthreads();
    if (t < BINS)
        hist[blockIdx.x * BINS + t] = s_hist[t];
}
