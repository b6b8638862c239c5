// instrument: --all
// Accesses written inside a macro expansion cannot be rewritten in place: they are listed as
// unchecked with that reason. Barriers in macros still become the runtime's (the prelude
// renames `__syncthreads`).
#define AT(a, i) a[i]
#define SQUARE(x) ((x) * (x))
#define SYNC() __syncthreads()

__global__ void macros(float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    AT(s, t) = (float)t;
    SYNC();
    out[t] = SQUARE(s[(t + 1) % 128]) + s[t];
}
