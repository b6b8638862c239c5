// Host C++ standard library (iostream, vector, algorithm, numeric, memory,
// string) in the same file as kernels.
#include <iostream>
#include <vector>
#include <algorithm>
#include <numeric>
#include <memory>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] + std::max(0.0f, x[i]) + std::min(1, i);
}

struct Buffer {
  float *ptr = nullptr;
  explicit Buffer(size_t n) { cudaMalloc(&ptr, n * sizeof(float)); }
  ~Buffer() { cudaFree(ptr); }
};

int main() {
  const int n = 1024;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  std::sort(y.begin(), y.end());
  auto buf = std::make_shared<Buffer>(n);
  std::unique_ptr<Buffer> other(new Buffer(n));
  cudaMemcpy(buf->ptr, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, buf->ptr, other->ptr);
  cudaMemcpy(y.data(), other->ptr, n * sizeof(float), cudaMemcpyDeviceToHost);
  float maxError = 0.0f;
  for (int i = 0; i < n; i++)
    maxError = std::max(maxError, std::abs(y[i] - 4.0f));
  std::string msg = "Max error: " + std::to_string(maxError);
  std::cout << msg << std::endl;
  return 0;
}
