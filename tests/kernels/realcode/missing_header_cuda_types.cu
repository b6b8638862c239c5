// A library's header this machine lacks brought CUDA's half type with it (PyTorch's and
// cuBLAS's headers include cuda_fp16.h): the missing header is read as including only that,
// so the kernels on `half` are analysed; the host code using the library is not read.
#include <my_tensor_library.h>

__global__ void to_half(half *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __float2half(in[i]);
}

// Every thread of a block writes the block's first slot: a race the analysis must report.
__global__ void first_of_block(half *out, const half *in) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; // RACE
}

void convert(my::Tensor &t, float *in, int n) {
  to_half<<<n / 128, 128>>>(t.data<half>(), in, n);
  first_of_block<<<n / 128, 128>>>(t.data<half>(), t.data<half>());
}
