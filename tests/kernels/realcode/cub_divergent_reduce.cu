// A CUB collective must be called by every thread of the block: called under `i < n`, the
// last block's threads past `n` never reach the barrier inside the reduction (a barrier
// divergence, as a gradient-descent kernel of a benchmark collection has it). Hoisting the
// call out of the branch fixes it.
#include <cub/cub.cuh>

__global__ void norm_divergent(const float *x, float *out, int n) {
  typedef cub::BlockReduce<float, 256> BlockReduce;
  __shared__ typename BlockReduce::TempStorage t;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  if (i < n)
    s = BlockReduce(t).Sum(x[i] * x[i]);
  if (threadIdx.x == 0) atomicAdd(out, s);
}

__global__ void norm(const float *x, float *out, int n) {
  typedef cub::BlockReduce<float, 256> BlockReduce;
  __shared__ typename BlockReduce::TempStorage t;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = BlockReduce(t).Sum(i < n ? x[i] * x[i] : 0.0f);
  if (threadIdx.x == 0) atomicAdd(out, s);
}

int main() {
  const int n = 1000;
  float *x, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  norm_divergent<<<(n + 255) / 256, 256>>>(x, out, n);
  norm<<<(n + 255) / 256, 256>>>(x, out, n);
  cudaDeviceSynchronize();
  return 0;
}
