// 16-bit float accumulators updated with atomicAdd, as HeCBench's f16atomic and lut-gemm write
// them: every thread adds a half2 and a bfloat162 (one 32-bit word each) and a __half into a
// few slots, atomically: safe. Then a total that thread 0 of each block reads while the other
// threads are still adding to it, once as a half2 and once as a __half: the read races with
// the atomics. gmrace leaves both pairs unknown, never safe: the front end takes an atomicAdd
// whose value is a struct (__half, __half2, ...) as a 32-bit atomic of an opaque value.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define SLOTS 64

__global__ void accumulate(const float *in, __half2 *pairs, __nv_bfloat162 *bpairs,
                           __half *singles, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float v = in[t];
  atomicAdd(&pairs[t % SLOTS], __floats2half2_rn(v, 1.0f));
  atomicAdd(&bpairs[t % SLOTS], __floats2bfloat162_rn(v, 1.0f));
  atomicAdd(&singles[2 * (t % SLOTS)], __float2half(v));
}

__global__ void total_then_peek(const float *in, __half2 *total, float *seen) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(total, __floats2half2_rn(v, v * v));
  if (threadIdx.x == 0)
    seen[blockIdx.x] = __low2float(*total);
}

__global__ void single_then_peek(const float *in, __half *total, float *seen) {
  atomicAdd(total, __float2half(in[blockIdx.x * blockDim.x + threadIdx.x]));
  if (threadIdx.x == 0)
    seen[blockIdx.x] = __half2float(*total);
}

int main() {
  const int n = 1 << 16;
  float *in, *seen;
  __half2 *pairs, *total;
  __nv_bfloat162 *bpairs;
  __half *singles, *single;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&pairs, SLOTS * sizeof(__half2));
  cudaMalloc(&bpairs, SLOTS * sizeof(__nv_bfloat162));
  cudaMalloc(&singles, 2 * SLOTS * sizeof(__half));
  cudaMalloc(&total, sizeof(__half2));
  cudaMalloc(&single, sizeof(__half));
  cudaMalloc(&seen, 256 * sizeof(float));
  accumulate<<<n / 256, 256>>>(in, pairs, bpairs, singles, n);
  total_then_peek<<<256, 256>>>(in, total, seen);
  single_then_peek<<<256, 256>>>(in, single, seen);
  cudaDeviceSynchronize();
  return 0;
}
