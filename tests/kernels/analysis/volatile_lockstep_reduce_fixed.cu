//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1] --warp-sync=32
// The volatile last-warp reduction without __syncwarp, under lockstep warps (GMRace's model): one statement at a time per warp, so the idiom is race-free.
__global__ void reduce_volatile(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
    }
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}
