//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// A warp-synchronous reduction in a counted loop through a volatile pointer: the loop re-reads shared memory, but not until a value changes, so it is no spin-wait and its lanes race.
__global__ void reduce_loop(const int *in, int *out) {
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        for (int d = 16; d > 0; d >>= 1)
            v[t] += v[t + d]; // RACE
    }
    __syncthreads();
    if (t == 0)
        out[0] = s[0];
}
