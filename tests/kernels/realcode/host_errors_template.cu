// A kernel template whose only launch is in host code that does not compile here (cuSPARSE is
// not installed, so its types are unknown): clang does not instantiate a host template with
// errors, so the kernel is listed as not analysed, saying why; the file's other kernel is
// analysed.
#include <cuda_runtime.h>
#include <cusparse.h>

template <typename T> __global__ void bias(T *c, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += b;
}

template <typename T> void gemmThenBias(T *a, T *c, int n) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  bias<T><<<(n + 255) / 256, 256>>>(c, (T)1, n);
}

__global__ void zero(float *c) { c[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }

int main() {
  float *a, *c;
  cudaMalloc(&a, 1024 * sizeof(float));
  cudaMalloc(&c, 1024 * sizeof(float));
  zero<<<4, 256>>>(c);
  gemmThenBias(a, c, 1024);
  return 0;
}
