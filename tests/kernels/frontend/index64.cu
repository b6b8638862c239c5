//pass
//--blockDim=[256,1,1] --gridDim=[8,1,1]
// 64-bit indices: size_t grid-stride loop, long long offsets and unsigned long long arithmetic.
__global__ void scale64(const float *in, float *out, size_t n, long long offset) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        long long j = (long long)i + offset;
        unsigned long long mask = 1ull << (i & 63);
        out[i] = in[j] * 2.0f + (float)(mask >> 60);
    }
}
