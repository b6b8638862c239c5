//xfail
//--blockDim=[128,1,1] --gridDim=[2,1,1] -DLEN=200
// Threads past LEN return early from a __device__ helper, skipping its barrier, and go on to the kernel's next barrier: divergence.
#define BS 128

__device__ void load_tile(float *s, const float *in, int g, int t) {
    if (g >= LEN)
        return;
    s[t] = in[g];
    __syncthreads(); // DIVERGENCE
}

// in and out hold LEN elements; in block 1 only threads 0..71 are in range.
__global__ void smooth_tail(const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    load_tile(s, in, g, t);
    float v = 0.0f;
    if (g < LEN)
        v = 0.5f * (s[t] + s[t > 0 ? t - 1 : t]);
    __syncthreads();
    if (g < LEN)
        out[g] = v;
}
