// scan: work-efficient exclusive prefix sum of 2 * blockDim.x elements per block
// (up-sweep to a reduction tree, then down-sweep), the algorithm of the scan used by B-tool's
// evaluation and GMRace's.
#define N 128

__global__ void scan(const int *in, int *out) {
    __shared__ int temp[N];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * N;
    temp[2 * t] = in[base + 2 * t];
    temp[2 * t + 1] = in[base + 2 * t + 1];
    unsigned offset = 1;
    for (unsigned d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1;
            unsigned bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (t == 0)
        temp[N - 1] = 0;
    for (unsigned d = 1; d < N; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1;
            unsigned bi = offset * (2 * t + 2) - 1;
            int v = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += v;
        }
    }
    __syncthreads();
    out[base + 2 * t] = temp[2 * t];
    out[base + 2 * t + 1] = temp[2 * t + 1];
}
