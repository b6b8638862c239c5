//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// __syncthreads() inside 'if (threadIdx.x < 16)': half a warp waits there while the other threads wait at the later _count barrier.
__global__ void mirror_head(const float *in, float *out) {
    __shared__ float s[16];
    unsigned t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    float v = in[g];
    if (t < 16) {
        s[t] = v;
        __syncthreads(); // DIVERGENCE
        v += s[15 - t];
    }
    int positives = __syncthreads_count(v > 0.0f);
    out[g] = v * (float)positives;
}
