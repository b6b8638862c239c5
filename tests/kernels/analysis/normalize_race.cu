//xfail
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Block sum (barrier at the top of each step) broadcast to all threads from s[0] without a final barrier after the last step.
#define BS 256

__global__ void normalize(const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    float v = in[g];
    s[t] = v;
    for (int stride = BS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride)
            s[t] += s[t + stride]; // RACE
    }
    out[g] = v / s[0]; // RACE
}
