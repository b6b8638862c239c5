//pass
//--blockDim=[16,16,1] --gridDim=[8,8,1]
// Two-dimensional __shared__ array padded to [16][17], indexed by threadIdx.x / threadIdx.y (16x16 tile transpose).
#define TILE 16
#define WIDTH 128

__global__ void transpose16(const float *in, float *out) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * WIDTH + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    out[ty * WIDTH + tx] = tile[threadIdx.x][threadIdx.y];
}
