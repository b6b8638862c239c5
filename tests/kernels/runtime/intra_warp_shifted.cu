// Hand-instrumented: pairs of lanes write one two-int struct, viewed at offsets 12 bytes
// apart, so the lanes' offsets are not congruent modulo the struct's size (8): the intra-warp
// check cannot compare start offsets and scans the warpTable. Lanes 2k and 2k+1 race on
// bytes 12k..12k+8; ranges 4 bytes apart never occur, so the per-field reference agrees.
#include "gmrace_runtime.cuh"

struct Pair {
    int a;
    int b;
};

__device__ void __gmrace_body_k(int *out) {
    __shared__ int s[200];
    __gmrace_shared(&s, sizeof(s), 0u);
    unsigned int t = threadIdx.x;
    Pair *q = (Pair *)&s[3 * (t / 2)];
    Pair v;
    v.a = t;
    v.b = -t;
    (*(decltype(q))__gmrace_at(q, sizeof(*q), 0u, GMRACE_WRITE, 0u)) = v;
    __gmrace_syncthreads();
    out[t] = (*(decltype(&(s[t])))__gmrace_at(&(s[t]), sizeof(s[0]), 1u, GMRACE_READ, 0u));
}

__global__ void k(int *out, unsigned int *__gmrace_rt) {
    __gmrace_enter(__gmrace_rt);
    __gmrace_body_k(out);
    __gmrace_exit();
}
