//xfail
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// As data_loop_shared_fixed, but the loop also reads the neighbour's slot, which the
// neighbour is still accumulating into.
#define BS 128

__global__ void segment_sums(const int *start, const int *end, const float *val, float *out) {
    __shared__ float acc[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    acc[t] = 0.0f; // RACE
    for (int j = start[g]; j < end[g]; ++j)
        acc[t] += val[j] - 0.5f * acc[(t + 1) % BS]; // RACE
    __syncthreads();
    out[g] = acc[t] - acc[(t + 1) % BS];
}
