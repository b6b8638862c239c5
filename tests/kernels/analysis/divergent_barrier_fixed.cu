//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// The barrier is hoisted out of 'if (threadIdx.x < 16)' so that every thread of the block reaches both barriers.
__global__ void mirror_head(const float *in, float *out) {
    __shared__ float s[16];
    unsigned t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    float v = in[g];
    if (t < 16)
        s[t] = v;
    __syncthreads();
    if (t < 16)
        v += s[15 - t];
    int positives = __syncthreads_count(v > 0.0f);
    out[g] = v * (float)positives;
}
