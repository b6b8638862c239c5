// Host code holding its buffer in a std::shared_ptr: <memory> must read under a real
// toolkit's headers as under the stand-ins (CUDA 12.4's `__noinline__` macro breaks
// libstdc++'s `__attribute__((__noinline__))`), so that no host code goes unread.
#include <memory>
#include <cuda_runtime.h>

__global__ void scale(float *v, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= f;
}

int main() {
  const int n = 1024;
  float *raw = nullptr;
  cudaMalloc(&raw, n * sizeof(float));
  std::shared_ptr<float> v(raw, [](float *p) { cudaFree(p); });
  scale<<<n / 256, 256>>>(v.get(), 2.0f, n);
  cudaDeviceSynchronize();
  return 0;
}
