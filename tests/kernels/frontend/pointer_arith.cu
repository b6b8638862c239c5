//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Pointer locals and pointer arithmetic into shared and global memory: p = s + k, p[1], *(p + 1), *dst++, q[-1].
__global__ void pair_sums(const float *in, float *out) {
    __shared__ float s[2 * 128 + 2];
    int tid = threadIdx.x;
    float *p = s + 2 * tid;
    const float *src = in + blockIdx.x * 256 + 2 * tid;
    p[0] = *src;
    p[1] = *(src + 1);
    if (tid == 0) {
        s[256] = 0.0f;
        s[257] = 0.0f;
    }
    __syncthreads();
    const float *q = &s[2 * tid + 1];
    float *dst = out + blockIdx.x * 256;
    dst += 2 * tid;
    *dst++ = q[-1] + q[0];
    *dst = q[0] + q[1];
}
