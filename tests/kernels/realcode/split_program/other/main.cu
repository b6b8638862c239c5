// Another program below the same directory, whose own `tileTranspose` (built elsewhere) takes
// 16x16 blocks: its launch is not of ../kernels.cu's kernel.
#include <cuda_runtime.h>

__global__ void tileTranspose(float *out, const float *in);

int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  tileTranspose<<<1, dim3(16, 16)>>>(out, in);
  return 0;
}
