//xfail
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// Tiled matrix multiply C = A*B (64x64) missing the second barrier of the tile loop: the next tile overwrites As/Bs while others still read.
#define TILE 16
#define N 64

__global__ void matmul(const float *A, const float *B, float *C) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < N / TILE; ++t) {
        As[ty][tx] = A[row * N + t * TILE + tx]; // RACE
        Bs[ty][tx] = B[(t * TILE + ty) * N + col]; // RACE
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx]; // RACE
    }
    C[row * N + col] = acc;
}
