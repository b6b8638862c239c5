// instrument: --all
// Shared accesses nested in the index of another: both are wrapped, inner first, and the
// inner one is evaluated once (in the outer wrapper's `&(E)`; `decltype`/`sizeof` do not
// evaluate).
__global__ void nested(const int *in, int *out) {
    __shared__ int idx[64];
    __shared__ int val[64];
    int t = threadIdx.x;
    idx[t] = in[t] % 64;
    val[t] = t;
    __syncthreads();
    out[t] = val[idx[t]];
    val[idx[idx[t]]] += 1;
    __syncthreads();
    out[t] += val[idx[(t + 1) % 64]];
}
