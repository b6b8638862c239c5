// One kernel launched from two places with different blocks, as a library's entry points for
// two problem sizes are: each launch is race-free, though a block larger than both would race.
// gmrace analyses a kernel under each launch's own configuration, not under what they share.
// The second kernel's larger launch does race: 512 threads wrap around its 256-slot tile.
#include <cuda_runtime.h>

__global__ void reverse(float *d) {
  __shared__ float tile[256];
  tile[threadIdx.x % 256] = d[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  d[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void rotate(float *d) {
  __shared__ float tile[256];
  tile[threadIdx.x % 256] = d[threadIdx.x]; // RACE
  __syncthreads();
  d[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

void small(float *d) {
  reverse<<<4, 128>>>(d);
  rotate<<<1, 128>>>(d);
}

void large(float *d) {
  reverse<<<2, 256>>>(d);
  rotate<<<1, 512>>>(d);
}

int main() {
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  small(d);
  large(d);
  return 0;
}
