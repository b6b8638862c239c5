//xfail
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// The tile is written back with the input row length w as its stride instead of h: when h > w two threads write one element (w = 2, h = 3: y = 0, x = 2 and y = 1, x = 0).
#define TILE 16

__global__ void transpose(float *out, const float *in, int w, int h) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w)
        out[y * w + x] = tile[threadIdx.x][threadIdx.y]; // RACE
}
