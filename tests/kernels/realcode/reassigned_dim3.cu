// Launch configurations kept in locals that are assigned again between launches, as programs
// with several kernels write them: each launch gets the assignment that reaches it. Where a
// loop brings another value round to the launch, or a lambda called before it assigns it, the
// block stays open.
#include <cuda_runtime.h>

#define W1 64
#define W2 16

__global__ void row(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x % 64];
}

__global__ void square(float *out) {
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x % 16] = out[threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x % 16][threadIdx.y];
}

__global__ void grown(float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x % 128] = out[threadIdx.x]; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x % 128];
}

__global__ void widened(float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x % 128] = out[threadIdx.x]; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x % 128];
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  dim3 blocks, threads;
  blocks = dim3(1);
  threads = dim3(W1);
  row<<<blocks, threads>>>(d);
  threads = dim3(W2, W2);
  square<<<blocks, threads>>>(d);
  int t = 256;
  t = W1;
  row<<<1, t>>>(d);
  dim3 b;
  b = dim3(128);
  for (int i = 0; i < 2; i++) {
    grown<<<1, b>>>(d);
    b = dim3(256);
  }
  dim3 c;
  c = dim3(128);
  auto widen = [&] { c = dim3(256); };
  widen();
  widened<<<1, c>>>(d);
  return 0;
}
