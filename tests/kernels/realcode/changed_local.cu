// A block size that the command line may change is not a constant: only its initializer
// would say 128, and a block of 128 threads would be race-free.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void rotate(float *data) {
  __shared__ float buf[128];
  buf[threadIdx.x % 128] = data[threadIdx.x]; // RACE
  __syncthreads();
  data[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}

int main(int argc, char **argv) {
  int threads = 128;
  if (argc > 1)
    threads = atoi(argv[1]);
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  rotate<<<1, threads>>>(d);
  return 0;
}
