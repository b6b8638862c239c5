// Element-wise addition as sample collections write it: sizes in locals of main, a grid
// computed from them, error checks through the project's helper header.
#include <cuda_runtime.h>
#include <stdio.h>
#include "check_cuda.h"

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  int numElements = 50000;
  size_t bytes = numElements * sizeof(float);
  printf("adding %d elements\n", numElements);
  float *a, *b, *c;
  CHECK_CUDA(cudaMalloc((void **)&a, bytes));
  CHECK_CUDA(cudaMalloc((void **)&b, bytes));
  CHECK_CUDA(cudaMalloc((void **)&c, bytes));
  int threadsPerBlock = 256;
  int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
  vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(a, b, c, numElements);
  CHECK_LAUNCH("vectorAdd");
  return 0;
}
