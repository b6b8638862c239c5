//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Reduction whose last warp reads, __syncwarp()s, writes and __syncwarp()s at every step, race-free under independent thread scheduling.
#define BS 256

__global__ void reduce_unrolled(const float *in, float *out) {
    __shared__ float s[BS];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (unsigned stride = BS / 2; stride > 32; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        float v = s[t];
        for (unsigned off = 32; off > 0; off >>= 1) {
            v += s[t + off];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
