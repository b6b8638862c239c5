//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// The last warp of a reduction unrolled through a volatile pointer and no __syncwarp: volatile orders nothing, so its lanes race under independent thread scheduling.
__global__ void reduce_volatile(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32]; // RACE
        v[t] += v[t + 16]; // RACE
        v[t] += v[t + 8]; // RACE
    }
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}
