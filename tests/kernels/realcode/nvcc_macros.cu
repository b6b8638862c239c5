// nvcc defines __CUDACC__ and __NVCC__ as 1 and __CUDACC_VER_MAJOR__: helpers become device
// functions under `#ifdef __NVCC__`, and `#if __CUDACC__` needs a value.
#include <cuda_runtime.h>

#if defined(__NVCC__)
#define HD __host__ __device__
#else
#define HD
#endif

#if __CUDACC__
HD inline int twice(int x) { return 2 * x; }
#endif

#if __CUDACC_VER_MAJOR__ >= 11
#define STRIDE 1
#else
#define STRIDE 0
#endif

__global__ void fill(int *out) {
  __shared__ int tile[64];
  tile[twice(threadIdx.x) % 64] = threadIdx.x; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x * STRIDE];
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  fill<<<1, 64>>>(d);
  return 0;
}
