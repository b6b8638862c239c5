// Launches whose configuration folds to one CUDA refuses (no blocks, too many threads) run
// nothing: each is a warning and no assumption, and the kernel is analysed as under any launch.
#include <cuda_runtime.h>

#define N 100
#define BLOCK 128

__global__ void rotate(float *data, int n) {
  __shared__ float buf[128];
  buf[threadIdx.x % 128] = data[threadIdx.x]; // RACE
  __syncthreads();
  data[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}

__global__ void scale(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}

int main() {
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  rotate<<<N / BLOCK, BLOCK>>>(d, N);
  scale<<<1, 2048>>>(d, N);
  return 0;
}
