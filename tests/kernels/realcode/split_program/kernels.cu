// The program's kernels, compiled on their own; main.cu launches them.
#include <cuda_runtime.h>
#include "kernels.h"

// Written for TILE x TILE blocks: in a wider block, two threads share a tile slot.
__global__ void tileTranspose(float *out, const float *in) {
  __shared__ float tile[TILE * TILE];
  int block = blockIdx.x;
  tile[threadIdx.y * TILE + threadIdx.x] = in[block * TILE * TILE + threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[block * TILE * TILE + threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x * TILE + threadIdx.y];
}

// Only this file can launch a `static` kernel, and none of its code does: main.cu's
// declaration of `zeroTile` names another function, whatever it launches.
static __global__ void zeroTile(float *out) {
  __shared__ float tile[TILE * TILE];
  tile[threadIdx.x % (TILE * TILE)] = 0.0f; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x % (TILE * TILE)];
}
