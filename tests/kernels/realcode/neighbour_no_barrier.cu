// A real race that must stay found: each step of a tree sum reads a neighbour's shared slot
// that the neighbour writes in the same barrier interval (the barrier inside the loop is
// missing).
#include <cuda_runtime.h>
#define N 1024
#define THREADS 256

__global__ void blockSums(const float *in, float *sums) {
  __shared__ float s[THREADS];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int stride = 1; stride < THREADS; stride *= 2) {
    if (t % (2 * stride) == 0)
      s[t] += s[t + stride]; // RACE
  }
  if (t == 0)
    sums[blockIdx.x] = s[0];
}

int main() {
  float *in, *sums;
  cudaMalloc(&in, N * sizeof(float));
  cudaMalloc(&sums, N / THREADS * sizeof(float));
  blockSums<<<N / THREADS, THREADS>>>(in, sums);
  return 0;
}
