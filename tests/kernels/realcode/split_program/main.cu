// The program's host code: launches the kernels kernels.cu defines.
#include <cuda_runtime.h>
#include "kernels.h"

__global__ void zeroTile(float *out);

int main() {
  const int n = 64 * TILE * TILE;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  dim3 block(TILE, TILE);
  tileTranspose<<<64, block>>>(out, in);
  zeroTile<<<1, TILE * TILE>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
