// A PyTorch extension whose host function checks its tensors the way CuTe tutorials do: a
// device guard from `get_device()`, the expected dtype and shape compared and printed, an fp8
// dtype named. Its kernel template is instantiated only there, so each of these must be
// declared for the kernel to be analysed; the kernel is race-free.
#include <torch/extension.h>
#include <iostream>

#define CHECK_DTYPE(T, DTYPE)                                                                  \
  if ((T).options().dtype() != (DTYPE)) {                                                      \
    std::cerr << "expected " << (DTYPE) << ", got " << (T).options().dtype() << std::endl;     \
    std::exit(1);                                                                              \
  }
#define CHECK_SHAPE(T, M, N)                                                                   \
  if ((T).sizes() != torch::IntArrayRef({M, N})) {                                             \
    std::cerr << "expected " << torch::IntArrayRef({M, N}) << ", got " << (T).sizes()          \
              << std::endl;                                                                    \
    std::exit(1);                                                                              \
  }

template <int M, int N>
__global__ void scale_rows(float *c, const float *a) {
  __shared__ float row[N];
  int i = blockIdx.x, j = threadIdx.x;
  row[j] = a[i * N + j];
  __syncthreads();
  c[i * N + j] = row[j] * row[N - 1 - j];
}

torch::ScalarType storage_type(bool fp8) { return fp8 ? torch::kFloat8_e4m3fn : torch::kFloat32; }

torch::Tensor run_scale_rows(const torch::Tensor &a) {
  at::cuda::CUDAGuard device_guard{a.get_device()};
  constexpr int M = 64, N = 32;
  CHECK_DTYPE(a, storage_type(false))
  CHECK_SHAPE(a, M, N)
  auto c = torch::empty({M, N}, a.options());
  scale_rows<M, N><<<M, N>>>(c.data_ptr<float>(), a.data_ptr<float>());
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("scale_rows", &run_scale_rows); }
