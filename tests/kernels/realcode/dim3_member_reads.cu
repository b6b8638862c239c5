// A grid computed from a member of a `dim3` set member by member (`blocks(N / threads.x)`), as
// Rodinia's and HeCBench's programs write it. N is one block's worth, so the grid is 1x1x1 and
// `out[t]` has one writer per element: safe. Were the grid left open, every block would write
// `out[t]`.
#include <cuda_runtime.h>

#define N 256

__global__ void scale(const float *in, float *out) {
  int t = threadIdx.x;
  out[t] = 2.0f * in[blockIdx.x * blockDim.x + t];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  dim3 threads;
  threads.x = 256;
  dim3 blocks(N / threads.x);
  scale<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
