//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Lanes pass values to the previous lane of their own warp through shared memory, ordered by __syncwarp().
__global__ void warp_rotate(const float *in, float *out) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int lane = t & 31;
    int base = t - lane;
    int g = blockIdx.x * 128 + t;
    s[t] = in[g];
    __syncwarp();
    out[g] = s[base + ((lane + 1) & 31)];
}
