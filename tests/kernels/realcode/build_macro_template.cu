// A kernel template sized by a macro the build defines (`-DBF=4`): the refusal names the
// undeclared macro, not clang's consequence in each instantiation ("default initialization of
// an object of const type").
#include <cuda_runtime.h>

template <typename F>
__global__ void forward(F *x, int T) {
  const int tj = T / BF;
  x[threadIdx.x] = tj;
}

int main() {
  float *d;
  forward<<<1, 32>>>(d, 64);
  return 0;
}
