// Dynamic parallelism (nvcc -rdc=true): a parent launches a child grid from device code.
// clang refuses the launch; gmrace reads it as a child grid that runs beside the rest of the
// parent grid. The parent's global stores may meet what the child writes, so they are not
// safe (unknown); its shared tile is beyond the child's reach and stays safe. Each kernel
// template launched from device code keeps its own analysis.
#include <cuda_runtime.h>

__global__ void fill(int *out, int v) { out[threadIdx.x] = v; }

template <int N>
__global__ void fill_tile(int *out) {
  __shared__ int tile[N];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

__global__ void parent(int *out, int *flags) {
  __shared__ int seen[64];
  seen[threadIdx.x] = flags[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    fill<<<1, 64>>>(out, seen[63]);
    fill_tile<64>
        <<<1, 64>>>(out + 64);
  }
  flags[threadIdx.x] = seen[63 - threadIdx.x];
}

int main() {
  int *out, *flags;
  cudaMalloc(&out, 128 * sizeof(int));
  cudaMalloc(&flags, 64 * sizeof(int));
  parent<<<1, 64>>>(out, flags);
  cudaDeviceSynchronize();
  return 0;
}
