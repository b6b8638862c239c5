// A kernel whose block a host function receives as a `dim3`: each block writes a 16x16 tile,
// one slot per thread when the block is 16 wide (in a wider block thread (16, 0) writes the
// slot of (0, 1)). The program's only call, in main.cpp, passes 16x16 blocks: no race.
#include "tiles.h"

__global__ void rows(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x;
}

void runTiles(float *d, dim3 grid, dim3 block) {
  rows<<<grid, block>>>(d);
  cudaDeviceSynchronize();
}
