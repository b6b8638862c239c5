//--blockDim=[128,1,1] --gridDim=[2,1,1]
// One kernel records a site (a data-dependent index) and two record nothing. The file's
// barriers become the runtime's, which needs __gmrace_enter: the kernel that records nothing
// but reaches a barrier stays under the runtime (the plan says why); the one without a barrier
// keeps its body as written.
__global__ void scatter(const int *idx, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[idx[t] & 127] = 1.0f;
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t];
}

__global__ void reverse(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    if (t >= 64)
        return;
    out[blockIdx.x * 128 + t] = s[127 - t];
}

__global__ void copy(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    out[blockIdx.x * 128 + t] = s[t];
}
