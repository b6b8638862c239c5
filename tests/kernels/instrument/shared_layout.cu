// instrument: --all
// Every shared variable a kernel uses reports its place to the runtime (`__gmrace_shared`), so
// that racy offsets are named the same way on every device. One at namespace scope (in a
// namespace, or `extern __shared__`) reports at kernel entry by its qualified name; one
// declared in a function, right after its declaration (two declarators share one `;`; a
// device function's own too). One declared inside a macro expansion, or after the kernel,
// cannot be named there: the plan notes it.
#define SHARED_TILE(name) __shared__ float name[32]

namespace tiles {
__shared__ int halo[34];
}
extern __shared__ float dyn[];

__device__ float stage(float v) {
    __shared__ float scratch[64];
    scratch[threadIdx.x] = v;
    __syncthreads();
    return scratch[63 - threadIdx.x];
}

__device__ void late_use();

__global__ void layout(float *out) {
    __shared__ int a[64], b[64];
    SHARED_TILE(m);
    int t = threadIdx.x;
    a[t] = t;
    b[t] = tiles::halo[t % 34];
    m[t % 32] = (float)t;
    dyn[t] = stage((float)a[t]);
    late_use();
    __syncthreads();
    out[t] = dyn[63 - t] + (float)b[t] + m[(t + 1) % 32];
}

__shared__ int late[64];
__device__ void late_use() { late[threadIdx.x] = 1; }
