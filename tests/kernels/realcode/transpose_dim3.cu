// A tiled transpose configured with macros and `dim3` locals whose extents are computed from
// other locals, as the samples do.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeTiled(float *odata, const float *idata, int width,
                               int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int sizeX = 1024, sizeY = 1024;
  dim3 threads(TILE_DIM, BLOCK_ROWS);
  dim3 grid(sizeX / TILE_DIM, sizeY / TILE_DIM);
  float *in, *out;
  cudaMalloc(&in, sizeX * sizeY * sizeof(float));
  cudaMalloc(&out, sizeX * sizeY * sizeof(float));
  transposeTiled<<<grid, threads>>>(out, in, sizeX, sizeY);
  return 0;
}
