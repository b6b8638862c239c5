// Kernels launched through a function pointer, as benchmark drivers do: each kernel the
// pointer is assigned gets that launch's configuration (a 32x8 block), under which the tile
// indices of both kernels are distinct.
#include <cuda_runtime.h>
#include <string.h>

__global__ void reverseTile(float *d) {
  __shared__ float t[256];
  int i = threadIdx.y * 32 + threadIdx.x;
  t[i] = d[blockIdx.x * 256 + i];
  __syncthreads();
  d[blockIdx.x * 256 + i] = t[255 - i];
}

__global__ void rotateTile(float *d) {
  __shared__ float t[256];
  int i = threadIdx.y * 32 + threadIdx.x;
  t[i] = d[blockIdx.x * 256 + i];
  __syncthreads();
  d[blockIdx.x * 256 + i] = t[(i + 1) % 256];
}

int main(int argc, char **argv) {
  void (*kernel)(float *);
  const char *name;
  if (argc > 1 && strcmp(argv[1], "rotate") == 0) {
    kernel = &rotateTile;
    name = "rotate";
  } else {
    kernel = &reverseTile;
    name = "reverse";
  }
  dim3 threads(32, 8), grid(64);
  float *d;
  cudaMalloc(&d, 64 * 256 * sizeof(float));
  kernel<<<grid, threads>>>(d);
  return name[0] == 'r' ? 0 : 1;
}
