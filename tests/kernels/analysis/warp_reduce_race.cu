//xfail
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Reduction whose last warp is unrolled without volatile or __syncwarp: its lanes race under independent thread scheduling.
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
        s[t] += s[t + 32]; // RACE
        s[t] += s[t + 16]; // RACE
        s[t] += s[t + 8]; // RACE
        s[t] += s[t + 4]; // RACE
        s[t] += s[t + 2]; // RACE
        s[t] += s[t + 1]; // RACE
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
