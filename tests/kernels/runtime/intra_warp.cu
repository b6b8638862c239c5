// Hand-instrumented per the runtime contract: lanes 0 and 16 of each warp write the same
// element in one statement (intra-warp race); nothing else races.
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[64];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    (*(decltype(&(s[t % 16 + (t / 32) * 16])))__gmrace_at(&(s[t % 16 + (t / 32) * 16]), sizeof(s[0]), 0u, GMRACE_WRITE, 0u)) = t;
    __gmrace_syncthreads();
    out[t] = (*(decltype(&(s[t % 32])))__gmrace_at(&(s[t % 32]), sizeof(s[0]), 1u, GMRACE_READ, 0u));
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
