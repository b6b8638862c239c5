// printf and assert in device code, with the host C/C++ headers included.
#include <cstdio>
#include <cassert>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ void check(int v) {
  assert(v >= 0 && "value must be non-negative");
  if (v > 1000)
    printf("large value %d\n", v);
}

__global__ void printer(const int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    check(data[i]);
    printf("thread %d (block %d, lane %d): %d %f %s\n", threadIdx.x,
           blockIdx.x, i % warpSize, data[i], 1.5, "str");
  }
  assert(i >= 0);
  int *scratch = (int *)malloc(4 * sizeof(int));
  if (scratch) {
    scratch[0] = i;
    free(scratch);
  }
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  printer<<<1, 64>>>(d, 64);
  cudaDeviceSynchronize();
  assert(d != nullptr);
  printf("done\n");
  fflush(stdout);
  return EXIT_SUCCESS;
}
