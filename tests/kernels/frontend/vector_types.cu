//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Vector types: float4 loads/stores (global and shared), int2 components, make_float2 / make_float4.
__global__ void vec_ops(const float4 *a, const float4 *b, float4 *c, const int2 *coords, float2 *pts) {
    __shared__ float4 tile[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float4 x = a[i];
    float4 y = b[i];
    tile[t] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    __syncthreads();
    float4 r = tile[63 - t];
    r.w = 1.0f;
    c[i] = r;
    int2 q = coords[i];
    q.y += q.x;
    pts[i] = make_float2((float)q.x * 0.5f, (float)q.y * 0.5f);
}
