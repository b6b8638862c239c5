//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Two lanes of one warp write the same shared word in one statement: s[t / 2] (intra-warp race in every warp model).
__global__ void pack_pairs(const int *in, int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    s[t / 2] = in[g]; // RACE
    __syncthreads();
    if (t < 32)
        out[blockIdx.x * 32 + t] = s[t];
}
