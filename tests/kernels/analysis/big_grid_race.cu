//xfail
//--blockDim=[256,1,1] --gridDim=[8192,1,1]
// The reduction of big_grid_fixed.cu without the barrier inside the loop: neighbours in the tree race within a warp and across warps.
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
            s[t] += s[t + stride]; // RACE
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
