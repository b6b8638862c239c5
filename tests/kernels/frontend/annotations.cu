//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// GPUVerify annotations: __requires on the launch and parameters, __assume, __invariant in a loop head, __assert.
__global__ void annotated_smooth(float *data, int n, int iters) {
    __requires(blockDim.x == 128);
    __requires(n == 512);
    __assume(iters > 0);
    __shared__ float s[130];
    int t = threadIdx.x;
    int g = blockIdx.x * 128 + t;
    __assert(g < n);
    s[t + 1] = data[g];
    if (t == 0) {
        s[0] = 0.0f;
        s[129] = 0.0f;
    }
    __syncthreads();
    for (int k = 0; __invariant(k >= 0), __invariant(k <= iters), k < iters; ++k) {
        float v = 0.25f * s[t] + 0.5f * s[t + 1] + 0.25f * s[t + 2];
        __syncthreads();
        s[t + 1] = v;
        __syncthreads();
    }
    data[g] = s[t + 1];
}
