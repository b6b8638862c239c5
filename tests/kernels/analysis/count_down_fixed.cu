//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// A counter stepped down by the unsigned blockDim.x while it stays non-negative: each thread fills its own slots of a shared tile, top first, before the barrier.
#define TILE 256

// out holds 2 * TILE words.
__global__ void reverse_fill(unsigned *out) {
    __shared__ unsigned tile[TILE];
    for (int i = TILE - 1 - (int)threadIdx.x; i >= 0; i -= blockDim.x)
        tile[i] = threadIdx.x;
    __syncthreads();
    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        out[blockIdx.x * TILE + i] = tile[TILE - 1 - i];
}
