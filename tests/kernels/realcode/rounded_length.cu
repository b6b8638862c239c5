// A row length the host rounds down to whole tiles before the launch (`s = s / TILE * TILE`):
// the kernel's parameter is then a multiple of TILE, so the ragged-tile branch never runs. A
// length one past such a multiple is not one: there the threads past the ragged end all fold
// their element into the first slot at once.
#include <cuda_runtime.h>
#include <stdlib.h>

#define TILE 256

__device__ void tile_sum(const float *in, float *sums, int s) {
  __shared__ float acc[TILE];
  int t = threadIdx.x;
  acc[t] = in[blockIdx.x * TILE + t];
  __syncthreads();
  if (s % TILE != 0 && t >= s % TILE)
    acc[0] += acc[t]; // RACE
  __syncthreads();
  if (t == 0)
    sums[blockIdx.x] = acc[0];
}

__global__ void whole_tiles(const float *in, float *sums, int s) { tile_sum(in, sums, s); }

__global__ void ragged_tiles(const float *in, float *sums, int s) { tile_sum(in, sums, s); }

int main(int argc, char **argv) {
  int s = argc > 1 ? atoi(argv[1]) : 1000;
  float *in, *sums;
  cudaMalloc(&in, (s + TILE) * sizeof(float));
  cudaMalloc(&sums, (s / TILE + 1) * sizeof(float));
  int r = s / TILE * TILE + 1;
  ragged_tiles<<<1, TILE>>>(in, sums, r);
  s = s / TILE * TILE;
  whole_tiles<<<1, TILE>>>(in, sums, s);
  return 0;
}
