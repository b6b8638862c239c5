// Hand-instrumented: three warps, two intervals. First warp 0 reads s[lane] while warp 1
// writes it; then warp 0 writes s[lane] while warps 1 and 2 read it. 64 racy granules per
// block but only two racing warp pairs, (0, 1) and (0, 2): R-Wp counts the pairs.
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[32];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    unsigned int lane = t % 32;
    int v = 0;
    if (t < 32)
        v = (*(decltype(&(s[lane])))__gmrace_at(&(s[lane]), sizeof(s[0]), 0u, GMRACE_READ, 0u));
    else if (t < 64)
        (*(decltype(&(s[lane])))__gmrace_at(&(s[lane]), sizeof(s[0]), 1u, GMRACE_WRITE, 0u)) = t;
    __gmrace_syncthreads();
    if (t < 32)
        (*(decltype(&(s[lane])))__gmrace_at(&(s[lane]), sizeof(s[0]), 2u, GMRACE_WRITE, 0u)) = t;
    else
        v += (*(decltype(&(s[lane])))__gmrace_at(&(s[lane]), sizeof(s[0]), 3u, GMRACE_READ, 0u));
    out[blockIdx.x * 96 + t] = v;
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
