//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Device functions called from two kernels with different verdicts: the site in the device
// function's own text is wrapped when any call needs it (one id for every caller); a
// reference-returning accessor is recorded where it is called; a call through a device
// function pointer reaches the same wrapped code.
__device__ void bump(int *p, int i) { p[i] += 1; }

__device__ int &slot(int *p, int i) { return p[i]; }

__device__ int get_plain(const int *p, int i) { return p[i]; }
__device__ int get_next(const int *p, int i) { return p[i + 1]; }

__global__ void racy_caller(const int *idx, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    __syncthreads();
    bump(s, idx[t]);
    slot(s, idx[t]) = 3;
    __syncthreads();
    int (*get)(const int *, int) = (t & 1) ? get_plain : get_next;
    out[t] = get(s, t % 32);
}

__global__ void safe_caller(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    bump(s, t);
    out[t] = s[t];
}
