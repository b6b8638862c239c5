// Integer parameters a launch passes from `float` host variables. `fill`'s `n` is 256.0f
// converted: an integer all the same, so thread x writes slot x alone (safe). `pick`'s `n` is
// the `float` product 4097.0f * 4097.0f = 16785408 (rounded from 16785409, which a `float` cannot
// hold): even, so threads 0 and 1 both write a[0] (a race). Folded as integer arithmetic it
// would be odd, and the race gone.
#include <cuda_runtime.h>

__global__ void fill(float *a, int n) {
  a[threadIdx.x % n] = 1.0f;
}

__global__ void pick(float *a, int n) {
  if (threadIdx.x == 0)
    a[n % 2] = 1.0f; // RACE
  if (threadIdx.x == 1)
    a[0] = 2.0f; // RACE
}

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  float n = 256;
  fill<<<1, 256>>>(d, n);
  float side = 4097;
  float area = side * side;
  pick<<<1, 32>>>(d, area);
  cudaDeviceSynchronize();
  return 0;
}
