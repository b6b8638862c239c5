// Launch configurations that change after a launch that used them, as Rodinia's hybridsort
// writes them: `dim3 threads(32); k1<<<g, threads>>>(); threads.x = 128; k2<<<g, threads>>>();`.
// Each launch gets what last set each member before it, its declaration included. A variable
// changed through a reference bound to it does not fold, nor does a `static` local changed
// after the launch (the next call finds the new value): their blocks stay open.
#include <cuda_runtime.h>

__global__ void narrow(float *out) {
  __shared__ float tile[32];
  tile[threadIdx.x % 32] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x % 32];
}

__global__ void wide(float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x % 128] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x % 128];
}

__global__ void counted(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x % 64];
}

__global__ void aliased(float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x % 128] = out[threadIdx.x]; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x % 128];
}

__global__ void once(float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = out[threadIdx.x]; // RACE
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x % 64];
}

void step(float *d) {
  static int width = 64;
  once<<<1, width>>>(d);
  width = 128;
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  dim3 threads(32, 1);
  narrow<<<1, threads>>>(d);
  threads.x = 128;
  wide<<<1, threads>>>(d);
  int t = 64;
  counted<<<1, t>>>(d);
  t = 128;
  int &r = t;
  r = 256;
  aliased<<<1, t>>>(d);
  step(d);
  step(d);
  return 0;
}
