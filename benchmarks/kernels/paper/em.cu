// em: the E-step of EM clustering with a per-block log-likelihood reduction (after GMRace's
// evaluation). Points are one-dimensional; each of the K clusters has a mean, a variance and a
// weight. The kernel was written for blocks of at most NUM_THREADS threads: a thread's slot in
// the shared partial sums is threadIdx.x % NUM_THREADS. Launched with 512 threads per block,
// threads t and t + 256 share a slot and write it in the same barrier interval: a race.
#define NUM_THREADS 256
#define K 3

__global__ void estep(const float *x, const float *mean, const float *var, const float *weight,
                      float *resp, float *loglik, int n) {
    __shared__ float partial[NUM_THREADS];
    unsigned tid = threadIdx.x;
    unsigned slot = tid % NUM_THREADS;
    float ll = 0.0f;
    for (int i = blockIdx.x * NUM_THREADS + slot; i < n; i += gridDim.x * NUM_THREADS) {
        float p[K];
        float total = 0.0f;
        for (int c = 0; c < K; c++) {
            float d = x[i] - mean[c];
            p[c] = weight[c] * expf(-0.5f * d * d / var[c]) * rsqrtf(6.2831853f * var[c]);
            total += p[c];
        }
        for (int c = 0; c < K; c++)
            resp[i * K + c] = p[c] / total;
        ll += logf(total);
    }
    partial[slot] = ll;
    __syncthreads();
    for (unsigned s = NUM_THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        loglik[blockIdx.x] = partial[0];
}
