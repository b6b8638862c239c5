//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// A counter stepped down by half the block while it stays non-negative: thread t + 32 starts where thread t's second step lands, in the shared tile.
#define TILE 256

// out holds 2 * TILE words.
__global__ void reverse_fill(unsigned *out) {
    __shared__ unsigned tile[TILE];
    for (int i = TILE - 1 - (int)threadIdx.x; i >= 0; i -= blockDim.x / 2)
        tile[i] = threadIdx.x; // RACE
    __syncthreads();
    for (int i = threadIdx.x; i < TILE; i += blockDim.x)
        out[blockIdx.x * TILE + i] = tile[TILE - 1 - i];
}
