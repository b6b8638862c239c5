// One kernel launched twice with different blocks: it is analysed under each launch, and the
// second one's blocks, wider than the shared buffer, race.
#include <cuda_runtime.h>

__global__ void stage(float *out, int offset) {
  __shared__ float buf[128];
  buf[threadIdx.x % 128] = out[offset + threadIdx.x]; // RACE
  __syncthreads();
  out[offset + threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  stage<<<1, 128>>>(d, 0);
  stage<<<1, 256>>>(d, 0);
  return 0;
}
