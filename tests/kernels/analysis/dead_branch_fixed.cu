//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// A tree reduction unrolled for any block size up to 512 and instantiated for 128: the steps for larger blocks are dead code, which no thread runs.

template <unsigned int BS>
__device__ void reduce_steps(float *s, unsigned int t) {
    if (BS >= 512) {
        if (t < 256)
            s[t] += s[t + 256];
        __syncthreads();
    }
    if (BS >= 256) {
        if (t < 128)
            s[t] += s[t + 128];
        __syncthreads();
    }
    if (BS >= 128) {
        if (t < 64)
            s[t] += s[t + 64];
        __syncthreads();
    }
    for (unsigned int d = 32; d > 0; d >>= 1) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
}

// in holds 256 floats, out 2.
template <unsigned int BS>
__global__ void block_sum(const float *in, float *out) {
    __shared__ float s[BS];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    reduce_steps<BS>(s, t);
    if (t == 0)
        out[blockIdx.x] = s[0];
}

template __global__ void block_sum<128>(const float *in, float *out);
