// GMRace's reductions, applied only where the analyzer proves them: `s[0]` is the same address
// in every thread (GMRACE_THREAD_INVARIANT), `s[k]` the same across the loop's iterations
// (GMRACE_LOOP_INVARIANT). Both race with the data-dependent write, so both are recorded.
__global__ void reductions(const int *idx, int *out, int k) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[idx[t] & 127] = t;
    int acc = s[0];
    for (int i = 0; i < 4; i++)
        acc += s[k & 127];
    out[t] = acc;
}
