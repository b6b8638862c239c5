//pass
//--blockDim=[32,1,1] --gridDim=[2,1,1] --warp-sync=32
// Lockstep warps (--warp-sync=32): the lanes of a warp take turns at one shared slot, one lane per round; two executions of one statement are ordered there (under its they race).

// in and out hold 64 words.
__global__ void turns(const int *in, int *out) {
    __shared__ int last[1];
    int t = threadIdx.x;
    int g = blockIdx.x * 32 + t;
    for (int r = 0; r < 32; r++) {
        if (t == r)
            last[0] = in[g] + r;
    }
    __syncthreads();
    out[g] = last[0];
}
