//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// A loop with a thread-dependent trip count (1 + t % 4) containing __syncthreads(): threads that leave early wait at the _count barrier instead.
__global__ void rounds(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    s[t] = in[g];
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < 1 + (t & 3); ++r) {
        acc += s[(t + r) & 63];
        __syncthreads(); // DIVERGENCE
    }
    int positives = __syncthreads_count(acc > 0);
    out[g] = acc + positives;
}
