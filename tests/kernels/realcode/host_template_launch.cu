// Kernel templates launched only from a host function template: the instantiation the host
// code reaches (`fillFirst<float>`) is analysed, and its real race found; a kernel template
// nothing instantiates is listed as not analysed.
#include <cuda_runtime.h>

template <typename T> __global__ void fillFirst(T *out, T value) {
  out[0] = value + (T)threadIdx.x; // RACE
}

template <typename T, int N> __global__ void neverUsed(T *out) {
  out[threadIdx.x] = N;
}

template <typename T> void launchFill(T *d, T v) { fillFirst<T><<<1, 64>>>(d, v); }

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  launchFill(d, 1.0f);
  return 0;
}
