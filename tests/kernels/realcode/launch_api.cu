// Kernels launched through the runtime API instead of <<<>>>: cudaLaunchKernel with a cast
// function pointer, and the C++ overload of cudaLaunchCooperativeKernel. Their 32x8 blocks make
// both tiles' indices distinct.
#include <cuda_runtime.h>

__global__ void mirrorTile(float *d) {
  __shared__ float t[256];
  int i = threadIdx.y * 32 + threadIdx.x;
  t[i] = d[blockIdx.x * 256 + i];
  __syncthreads();
  d[blockIdx.x * 256 + i] = t[255 - i];
}

__global__ void shiftTile(float *d) {
  __shared__ float t[256];
  int i = threadIdx.y * 32 + threadIdx.x;
  t[i] = d[blockIdx.x * 256 + i];
  __syncthreads();
  d[blockIdx.x * 256 + i] = t[(i + 32) % 256];
}

int main() {
  float *d;
  cudaMalloc(&d, 16 * 256 * sizeof(float));
  void *args[] = {&d};
  dim3 threads(32, 8), grid(16);
  cudaLaunchKernel((const void *)mirrorTile, grid, threads, args, 0, 0);
  cudaLaunchCooperativeKernel(shiftTile, grid, threads, args);
  return 0;
}
