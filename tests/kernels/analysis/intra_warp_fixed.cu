//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Only the even lane of each pair writes s[t / 2], so each shared word has a single writer.
__global__ void pack_pairs(const int *in, int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    if ((t & 1) == 0)
        s[t / 2] = in[g];
    __syncthreads();
    if (t < 32)
        out[blockIdx.x * 32 + t] = s[t];
}
