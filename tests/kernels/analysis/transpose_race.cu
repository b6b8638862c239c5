//xfail
//--blockDim=[32,8,1] --gridDim=[4,4,1]
// Tiled transpose through __shared__ float tile[32][33] (32x8 threads, 4 rows each) with the barrier between load and store missing.
#define TILE 32
#define ROWS 8
#define WIDTH 128

__global__ void transpose(const float *in, float *out) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * WIDTH + x]; // RACE
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * WIDTH + x] = tile[threadIdx.x][threadIdx.y + j]; // RACE
}
