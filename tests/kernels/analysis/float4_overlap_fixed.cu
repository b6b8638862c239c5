//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// A float4 store covers 16 bytes; a barrier orders the neighbours' float4 stores before the scalar reads.
__global__ void vec_diff(const float4 *in, float *out) {
    __shared__ float4 s4[65];
    float *s = (float *)s4;
    int t = threadIdx.x;
    s4[t] = in[blockIdx.x * 64 + t];
    if (t == 63)
        s4[64] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    out[blockIdx.x * 64 + t] = s[4 * t + 4] - s[4 * t];
}
