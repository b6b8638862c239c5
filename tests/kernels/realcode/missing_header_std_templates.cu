// A framework's header this machine lacks brought the C++ library with it (PyTorch's headers
// include most of it): the file names `std::tuple` without including <tuple>. The missing
// header is read as including <tuple>, so the kernels are analysed; the host code using the
// framework is not read.
#include <my_framework/tensor.h>

__device__ std::tuple<float, int> scale_of(int block, int tiles_n) {
  return {1.0f / (block / tiles_n + 1), block % tiles_n};
}

__global__ void scale_rows(float *a, int tiles_n) {
  std::tuple<float, int> s = scale_of(blockIdx.x, tiles_n);
  a[blockIdx.x * blockDim.x + threadIdx.x] *= std::get<0>(s);
}

// Every thread of a block writes the block's slot.
__global__ void mark_rows(int *tile, int tiles_n) {
  std::tuple<float, int> s = scale_of(blockIdx.x, tiles_n);
  tile[blockIdx.x] = std::get<1>(s) + threadIdx.x; // RACE
}

void run(fw::Tensor &t, int n) {
  scale_rows<<<n / 128, 128>>>(t.data<float>(), n / 1024);
  mark_rows<<<n / 128, 128>>>(t.data<int>(), n / 1024);
}
