// A PyTorch extension: its kernel template is instantiated only by the host function that takes
// tensors, through ATen's type dispatch. Without PyTorch's headers on the include path gmrace
// reads its declarations of that API (`gmrace_pytorch.h`), so both instantiations are analysed;
// each has the race of a tree reduction with no barrier between its steps.
#include <torch/extension.h>

template <typename scalar_t>
__global__ void row_sum(scalar_t *out, const scalar_t *in, int cols) {
  __shared__ float partial[128];
  partial[threadIdx.x] = in[blockIdx.x * cols + threadIdx.x];
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s]; // RACE: no barrier between steps
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

torch::Tensor row_sum_cuda(const torch::Tensor &x) {
  TORCH_CHECK(x.is_cuda() && x.dim() == 2 && x.size(1) == 128, "x must be rows of 128");
  auto out = torch::empty({x.size(0)}, x.options());
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "row_sum", [&] {
    row_sum<scalar_t><<<x.size(0), 128>>>(out.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), 128);
  });
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("row_sum", &row_sum_cuda); }
