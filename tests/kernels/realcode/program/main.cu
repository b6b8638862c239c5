// The program's translation unit: its types and tile size, then its kernels.
#include <cuda_runtime.h>
#include "types.h"
#define TILE 128
#include "kernels.cu"

int main() {
  Pair *d;
  cudaMalloc(&d, 4 * TILE * sizeof(Pair));
  swapPairs<<<4, TILE>>>(d);
  foldPairs<<<4, TILE>>>(d);
  cudaFree(d);
  return 0;
}
