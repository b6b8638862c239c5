//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Blelloch exclusive scan (up-sweep, down-sweep) of 256 elements per block, with a barrier before the coalesced store.
#define BS 128
#define N (2 * BS)

__global__ void scan_blelloch(const float *in, float *out) {
    __shared__ float temp[N];
    int t = threadIdx.x;
    int base = blockIdx.x * N;
    temp[t] = in[base + t];
    temp[t + BS] = in[base + t + BS];
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (t == 0)
        temp[N - 1] = 0.0f;
    for (int d = 1; d < N; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            float x = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += x;
        }
    }
    __syncthreads();
    out[base + t] = temp[t];
    out[base + t + BS] = temp[t + BS];
}
