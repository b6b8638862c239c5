//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Warp intrinsics: __shfl_down_sync sum, __shfl_sync broadcast, __ballot_sync, __any_sync, __activemask, __popc.
__global__ void warp_stats(const float *in, float *sums, unsigned *ballots, int *any_neg, int *active_counts) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = g >> 5;
    float x = in[g];
    float v = x;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    float total = __shfl_sync(0xffffffffu, v, 0);
    unsigned ballot = __ballot_sync(0xffffffffu, x > total / 32.0f);
    int neg = __any_sync(0xffffffffu, x < 0.0f);
    if (lane == 0) {
        sums[warp] = total;
        ballots[warp] = ballot;
        any_neg[warp] = neg;
    }
    int count = 0;
    if (x > 1.0f) {
        unsigned active = __activemask();
        count = __popc(active);
    }
    active_counts[g] = count;
}
