// Hand-instrumented: both warps add to s[1] atomically (no race); warp 0 adds to s[0]
// atomically while warp 1 reads it in the same interval (atomic/read race on s[0]).
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[2];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    if (t == 0) {
        (*(decltype(&(s[0])))__gmrace_at(&(s[0]), sizeof(s[0]), 0u, GMRACE_WRITE, 0u)) = 0;
        (*(decltype(&(s[1])))__gmrace_at(&(s[1]), sizeof(s[1]), 1u, GMRACE_WRITE, 0u)) = 0;
    }
    __gmrace_syncthreads();
    atomicAdd(((decltype(&s[1]))__gmrace_at((&s[1]), sizeof(*(&s[1])), 2u, GMRACE_ATOMIC, GMRACE_THREAD_INVARIANT)), 1);
    if (t < 32)
        atomicAdd(((decltype(&s[0]))__gmrace_at((&s[0]), sizeof(*(&s[0])), 3u, GMRACE_ATOMIC, GMRACE_THREAD_INVARIANT)), 1);
    else
        out[t] = (*(decltype(&(s[0])))__gmrace_at(&(s[0]), sizeof(s[0]), 4u, GMRACE_READ, GMRACE_THREAD_INVARIANT));
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
