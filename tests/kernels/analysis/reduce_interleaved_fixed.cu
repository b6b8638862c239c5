//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Tree reduction with interleaved addressing (t % (2*stride) == 0) and a barrier closing every step.
#define BS 256

__global__ void reduce_interleaved(const int *in, int *out) {
    __shared__ int s[BS];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (unsigned stride = 1; stride < BS; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
