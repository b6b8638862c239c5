//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// The loop runs a uniform 4 rounds and guards the work with the thread-dependent bound, so every barrier is reached by all.
__global__ void rounds(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    s[t] = in[g];
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < 4; ++r) {
        if (r < 1 + (t & 3))
            acc += s[(t + r) & 63];
        __syncthreads();
    }
    int positives = __syncthreads_count(acc > 0);
    out[g] = acc + positives;
}
