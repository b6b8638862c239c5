// A project's own header that the include path does not reach (its build adds the directory
// with `-I`): found in the project, nearest the file, read, and named in a warning. Its
// constants are the launch's and the tile's, so the tile is proved safe and the race below
// is definite; read as empty, the file would be refused.
#include <cuda_runtime.h>
#include "block_sizes.h"
#ifdef _WIN32
#include "win_sizes.h"
#endif

__global__ void reverse_tile(float *out, const float *in) {
  __shared__ float tile[TILE];
  tile[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

__global__ void pairs(float *out) {
  out[threadIdx.x / PAIR] = threadIdx.x; // RACE
}

int main() {
  float *a, *b;
  cudaMalloc(&a, GRID * TILE * sizeof(float));
  cudaMalloc(&b, GRID * TILE * sizeof(float));
  reverse_tile<<<GRID, TILE>>>(a, b);
  pairs<<<1, TILE>>>(a);
  return 0;
}
