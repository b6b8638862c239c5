//xfail
//--blockDim=[32,1,1] --gridDim=[2,1,1] --warp-sync=32
// Lockstep warps (--warp-sync=32): lanes take turns at one shared slot, but lane 0 also writes in the last round, in the same execution of the statement as lane 31.

// in and out hold 64 words.
__global__ void turns(const int *in, int *out) {
    __shared__ int last[1];
    int t = threadIdx.x;
    int g = blockIdx.x * 32 + t;
    for (int r = 0; r < 32; r++) {
        if (t == r || (t == 0 && r == 31))
            last[0] = in[g] + r; // RACE
    }
    __syncthreads();
    out[g] = last[0];
}
