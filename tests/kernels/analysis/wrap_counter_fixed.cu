//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// An unsigned counter that starts near the top of its range and wraps around to small values on its first step, where each thread writes its own slot.

// out holds 64 words.
__global__ void wrap_fill(unsigned *out) {
    __shared__ unsigned s[64];
    for (unsigned i = 0xFFFFFFC0u + threadIdx.x; i < 0xFFFFFFF0u; i += 64u) {
        if (i < 64u) {
            s[i] = threadIdx.x;
            break;
        }
    }
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x / 2];
}
