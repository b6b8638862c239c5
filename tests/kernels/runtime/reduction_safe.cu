// Hand-instrumented tree reduction with a barrier per step: race-free, in every interval the
// readers of s[t + d] are in the same warp as its writer or separated by a barrier.
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(const int *in, int *out) {
    __shared__ int s[128];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    (*(decltype(&(s[t])))__gmrace_at(&(s[t]), sizeof(s[t]), 0u, GMRACE_WRITE, 0u)) = in[blockIdx.x * 128 + t];
    __gmrace_syncthreads();
    for (unsigned int d = 64; d > 0; d /= 2) {
        if (t < d)
            (*(decltype(&(s[t])))__gmrace_at(&(s[t]), sizeof(s[t]), 1u, GMRACE_UPDATE, 0u)) +=
                (*(decltype(&(s[t + d])))__gmrace_at(&(s[t + d]), sizeof(s[t + d]), 2u, GMRACE_READ, 0u));
        __gmrace_syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = (*(decltype(&(s[0])))__gmrace_at(&(s[0]), sizeof(s[0]), 3u, GMRACE_READ, GMRACE_THREAD_INVARIANT));
}

__global__ void k(const int *in, int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(in, out);
    __gmrace_exit();
}
