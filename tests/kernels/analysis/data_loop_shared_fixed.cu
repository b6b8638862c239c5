//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Each thread accumulates a data-dependent number of values into its own shared slot; the
// neighbour's slot is read only after the barrier.
#define BS 128

__global__ void segment_sums(const int *start, const int *end, const float *val, float *out) {
    __shared__ float acc[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    acc[t] = 0.0f;
    for (int j = start[g]; j < end[g]; ++j)
        acc[t] += val[j];
    __syncthreads();
    out[g] = acc[t] - acc[(t + 1) % BS];
}
