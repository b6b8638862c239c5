//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Threads read a mirrored slot written by a thread of the other warp, after a block barrier.
__global__ void mirror(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    s[t] = in[g];
    __syncthreads();
    out[g] = s[63 - t];
}
