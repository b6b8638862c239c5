// CUB's BlockReduce as projects use it (`#include <cub/cub.cuh>`): one reduction per block,
// the result written by thread 0; then two reductions through the same TempStorage, once with
// the __syncthreads() CUB asks for before the storage is reused, once without it (the second
// reduction's writes race with thread 0's reads of the first).
#include <cub/cub.cuh>

#define BLOCK 128

__global__ void block_sum(const float *in, float *out) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  float sum = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

__global__ void sum_and_max(const float *in, float *out) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  float sum = BlockReduce(temp).Sum(v);
  __syncthreads();
  float top = BlockReduce(temp).Reduce(v, cub::Max());
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = sum;
    out[2 * blockIdx.x + 1] = top;
  }
}

__global__ void sum_and_max_unsynced(const float *in, float *out) {
  typedef cub::BlockReduce<float, BLOCK> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = in[blockIdx.x * BLOCK + threadIdx.x];
  float sum = BlockReduce(temp).Sum(v); // RACE
  float top = BlockReduce(temp).Reduce(v, cub::Max()); // RACE
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = sum;
    out[2 * blockIdx.x + 1] = top;
  }
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * BLOCK * sizeof(float));
  cudaMalloc(&out, 2 * 64 * sizeof(float));
  block_sum<<<64, BLOCK>>>(in, out);
  sum_and_max<<<64, BLOCK>>>(in, out);
  sum_and_max_unsynced<<<64, BLOCK>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
