// Launches `fill` in blocks of 64.
#include <cuda_runtime.h>

__global__ void fill(int *out);

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  return 0;
}
