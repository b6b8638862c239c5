// Scalar arguments a launching function receives from its callers: `scaleRows` passes its
// parameters on to the kernel, and `main` (the only caller: the file is the program's) calls
// it with `nj = NJ`. With that value, `c[i * NJ + j]` of two threads never meet: safe. Without
// it, `nj > NJ` would let row i's tail run into row i + 1, a race no launch of this program has.
#include <cuda_runtime.h>

#define NI 256
#define NJ 512

__global__ void scale(float *c, int ni, int nj, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj)
    c[i * NJ + j] *= beta;
}

void scaleRows(float *c, int ni, int nj, float beta) {
  dim3 block(32, 8);
  dim3 grid((nj + 31) / 32, (ni + 7) / 8);
  scale<<<grid, block>>>(c, ni, nj, beta);
}

int main() {
  int ni = NI;
  int nj = NJ;
  float *c;
  cudaMalloc(&c, NI * NJ * sizeof(float));
  scaleRows(c, ni, nj, 0.5f);
  return 0;
}
