//pass
//--blockDim=[128,1,1] --gridDim=[512,1,1]
// n is free: whether a thread returns early depends on it, so each thread may or may not reach
// the tile; those that do each write their own slot, and read others' after the barrier.
#define BS 128

__global__ void reverse_tiles(const int *in, int *out, int n) {
    __shared__ int tile[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    if (g >= n)
        return;
    tile[t] = in[g];
    __syncthreads();
    out[g] = tile[BS - 1 - t];
}
