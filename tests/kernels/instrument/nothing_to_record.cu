//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Without --all, a kernel whose shared accesses the analysis all decides records nothing: it
// keeps its body as written (no __gmrace_enter/__gmrace_exit, its `return` untouched) and only
// gets the runtime parameter. With no checked kernel in the file the barriers stay plain too
// (no barrier macros in the prelude), including one in a device function.
__device__ void publish(float *s, int t, float v) {
    s[t] = v;
    __syncthreads();
}

__global__ void shift(const float *in, float *out, int n) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int g = blockIdx.x * 128 + t;
    publish(s, t, in[g]);
    if (g >= n)
        return;
    out[g] = s[(t + 1) % 128];
}

__global__ void copy(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    out[blockIdx.x * 128 + t] = s[t];
}
