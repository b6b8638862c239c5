//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Per-thread local arrays: filled from global memory, insertion-sorted with nested loops, read with computed indices.
#define K 8

__global__ void local_median(const float *in, float *med) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    float w[K];
    int hist[4] = {0, 0, 0, 0};
    for (int k = 0; k < K; ++k) {
        w[k] = in[g * K + k];
        hist[k & 3] += w[k] > 0.0f;
    }
    for (int a = 1; a < K; ++a) {
        float key = w[a];
        int b = a - 1;
        while (b >= 0 && w[b] > key) {
            w[b + 1] = w[b];
            --b;
        }
        w[b + 1] = key;
    }
    med[g] = 0.5f * (w[K / 2 - 1] + w[K / 2]) + (float)hist[g & 3];
}
