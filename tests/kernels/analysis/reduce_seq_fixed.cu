//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Tree reduction in shared memory, sequential addressing, with a barrier after the load and after every step.
#define BS 256

__global__ void reduce_seq(const float *in, float *out) {
    __shared__ float s[BS];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (unsigned stride = BS / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
