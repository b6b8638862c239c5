// The CUDA samples' 24-bit index: `__umul24` ignores the high byte of each operand, so blocks
// 2^24 apart would share an index. No program launches that many blocks with it on purpose:
// under the open launch the store is unknown, not a race.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void scale(float *data, float factor, unsigned int n) {
  unsigned int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  if (i < n)
    data[i] *= factor;
}

int main(int argc, char **argv) {
  unsigned int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  unsigned int threads = argc > 2 ? atoi(argv[2]) : 64;
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  scale<<<n / threads + 1, threads>>>(d, 2.0f, n);
  cudaDeviceSynchronize();
  return 0;
}
