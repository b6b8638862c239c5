// The program's translation unit: its index type, then its host code, kept in `.cpp` files,
// one of which includes the kernels.
#include <cuda_runtime.h>
#define idx_t short
#include "moves.cpp"

int main() {
  idx_t *d;
  cudaMalloc(&d, 256 * sizeof(idx_t));
  runMoves(d);
  cudaFree(d);
  return 0;
}
