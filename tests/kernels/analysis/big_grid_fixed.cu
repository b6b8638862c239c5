//pass
//--blockDim=[256,1,1] --gridDim=[8192,1,1]
// Per-block tree reduction over a grid too large to run whole; the loads branch on the input (data-dependent clamp).
#define BS 256

__global__ void big_grid(const float *in, float *out, float cap) {
    __shared__ float s[BS];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * BS + t];
    if (v > cap)
        s[t] = cap;
    else
        s[t] = v;
    __syncthreads();
    for (unsigned stride = BS / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
