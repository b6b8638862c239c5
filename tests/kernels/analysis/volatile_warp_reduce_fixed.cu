//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// The volatile last-warp reduction with __syncwarp between its steps (each step reads into a register, syncs, then writes).
__global__ void reduce_volatile(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        int x = v[t] + v[t + 32];
        __syncwarp();
        v[t] = x;
        __syncwarp();
        x = v[t] + v[t + 16];
        __syncwarp();
        v[t] = x;
        __syncwarp();
        x = v[t] + v[t + 8];
        __syncwarp();
        v[t] = x;
    }
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}
