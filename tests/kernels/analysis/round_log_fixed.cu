//pass
//--blockDim=[32,1,1] --gridDim=[2,1,1] --warp-sync=32
// Lockstep warps (--warp-sync=32): round r's lane logs into entry r, and lane 0 rewrites the last entry one round later, in another execution of the statement than lane 31.

// in and out hold 64 words.
__global__ void round_log(const int *in, int *out) {
    __shared__ int entry[32];
    int t = threadIdx.x;
    int g = blockIdx.x * 32 + t;
    for (int r = 0; r <= 32; r++) {
        if (t == r || (t == 0 && r == 32))
            entry[r == 32 ? 31 : r] = in[g] + r;
    }
    __syncthreads();
    out[g] = entry[t];
}
