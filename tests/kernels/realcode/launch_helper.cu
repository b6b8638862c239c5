// Kernels launched through helpers that take the kernel: a variadic template that forwards its
// arguments, and a plain function taking a kernel pointer. Each call of a helper is a launch
// of the kernel it passes, with the values it passes: `tile` runs in blocks of 64 (safe; in a
// wider block two threads share a slot), `wrap` with width 128 in 128 threads (safe) and with
// width 64 (a race: threads x and x + 64 write one slot).
#include <cuda_runtime.h>

template <typename Kernel, typename... Args>
void launch(Kernel kernel, int blocks, int threads, Args... args) {
  kernel<<<blocks, threads>>>(args...);
  cudaDeviceSynchronize();
}

void launchOne(void (*kernel)(float *, int), float *d, int width) {
  kernel<<<1, 128>>>(d, width);
}

__global__ void tile(float *out, int n) {
  __shared__ float buf[64];
  buf[threadIdx.x % 64] = out[blockIdx.x * 64 + threadIdx.x % 64];
  __syncthreads();
  if (blockIdx.x * 64 + threadIdx.x < n)
    out[blockIdx.x * 64 + threadIdx.x] = buf[63 - threadIdx.x % 64];
}

__global__ void wrap(float *out, int width) {
  out[threadIdx.x % width] = threadIdx.x; // RACE
}

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  launch(tile, 4, 64, d, 256);
  auto kernel = wrap;
  launch(kernel, 1, 128, d, 128);
  launchOne(wrap, d, 64);
  return 0;
}
