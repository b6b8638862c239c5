// scan_racy: exclusive prefix sum of blockDim.x elements per block, the double-buffered
// (Hillis-Steele) scan of the CUDA SDK that B-tool's evaluation, and GMRace's after it, used.
// Each step reads one half of the buffer and writes the other; the halves swap every step.
// RACY: the first barrier, between loading the input into shared memory and the first step,
// is removed: the first thread of each warp reads the element the last thread of the warp
// before it is still writing.
#define N 128

__global__ void scan(const int *in, int *out) {
    __shared__ int temp[2 * N];
    unsigned t = threadIdx.x;
    unsigned base = blockIdx.x * N;
    unsigned pout = 0;
    unsigned pin = 1;
    temp[pout * N + t] = t > 0 ? in[base + t - 1] : 0;
    for (unsigned offset = 1; offset < N; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= offset)
            temp[pout * N + t] = temp[pin * N + t] + temp[pin * N + t - offset];
        else
            temp[pout * N + t] = temp[pin * N + t];
        __syncthreads();
    }
    out[base + t] = temp[pout * N + t];
}
