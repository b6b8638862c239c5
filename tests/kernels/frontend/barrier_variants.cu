//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Barrier variants __syncthreads_count / _and / _or (predicates read shared memory) and __syncwarp between lanes.
__global__ void votes(const int *in, int *out, int *summary) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int g = blockIdx.x * 128 + t;
    int v = in[g];
    s[t] = v;
    int positives = __syncthreads_count(v > 0);
    int all_small = __syncthreads_and(s[(t + 1) % 128] < 100);
    int any_zero = __syncthreads_or(s[(t + 64) % 128] == 0);
    s[t] = v + positives;
    __syncwarp();
    int lane = t % 32;
    int neighbour = s[(t & ~31) | ((lane + 1) & 31)];
    out[g] = neighbour;
    if (t == 0)
        summary[blockIdx.x] = all_small * 2 + any_zero;
}
