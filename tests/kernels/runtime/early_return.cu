// Hand-instrumented: warp 2 writes s[t] and returns before the barrier (its writes are then
// ordered before whatever follows the barrier, so warp 0 reading s[70] does not race). After
// the barrier, thread 40 writes s[96] and warp 1 returns, and thread 0 reads s[96]: a race in
// the last interval, which only the last thread to finish checks.
#include "gmrace_runtime.cuh"

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[97];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    (*(decltype(&(s[t])))__gmrace_at(&(s[t]), sizeof(s[t]), 0u, GMRACE_WRITE, 0u)) = t;
    if (t >= 64)
        return;
    __gmrace_syncthreads();
    if (t >= 32) {
        if (t == 40)
            (*(decltype(&(s[96])))__gmrace_at(&(s[96]), sizeof(s[96]), 1u, GMRACE_WRITE, 0u)) = 1;
        return;
    }
    if (t == 0)
        out[0] = (*(decltype(&(s[96])))__gmrace_at(&(s[96]), sizeof(s[96]), 2u, GMRACE_READ, 0u));
    if (t == 1)
        out[1] = (*(decltype(&(s[70])))__gmrace_at(&(s[70]), sizeof(s[70]), 3u, GMRACE_READ, 0u));
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
