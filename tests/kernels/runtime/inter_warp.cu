// Hand-instrumented: each thread writes s[t] and, without a barrier, reads its neighbour
// s[t+1]: lane 31 of warp 0 reads what lane 0 of warp 1 writes (inter-warp race). The reads
// after the barrier do not race.
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[65];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    (*(decltype(&(s[t])))__gmrace_at(&(s[t]), sizeof(s[t]), 0u, GMRACE_WRITE, 0u)) = t;
    int v = (*(decltype(&(s[t + 1])))__gmrace_at(&(s[t + 1]), sizeof(s[0]), 1u, GMRACE_READ, 0u));
    __gmrace_syncthreads();
    out[t] = v + (*(decltype(&(s[63 - t])))__gmrace_at(&(s[63 - t]), sizeof(s[0]), 2u, GMRACE_READ, 0u));
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
