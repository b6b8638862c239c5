// A warp's largest magnitude in __half and __nv_bfloat16 as MX quantizers compute it
// (__habs, __hmax, shuffles of both types, hlog2, hfloor), and a LUT-GEMM style table entry
// built from signed sums with unary plus (`+__float2half(s) * x` is a __half, as with nvcc).
// Lane 0 of each warp writes its warp's results: safe.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T> __device__ T warp_absmax(T v) {
  T m = __habs(v);
  for (int lane = 1; lane < 32; lane *= 2)
    m = __hmax(m, __shfl_xor_sync(0xffffffffu, m, lane));
  return m;
}

template <typename T>
__global__ void block_exponent(const T *in, int *exps, T *table, const __half *x) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  T m = warp_absmax(in[t]);
  __half entry = +__float2half((float)(2 * (threadIdx.x & 1) - 1)) * x[0] +
                 +__float2half((float)(2 * ((threadIdx.x >> 1) & 1) - 1)) * x[1];
  if (threadIdx.x % 32 == 0) {
    exps[t / 32] = (int)hfloor(hlog2(m));
    T e = __half2float(entry);
    table[t / 32] = e + m;
  }
}

int main() {
  __half *h, *ht, *x;
  __nv_bfloat16 *b, *bt;
  int *e;
  cudaMalloc(&h, 4096 * sizeof(__half));
  cudaMalloc(&b, 4096 * sizeof(__nv_bfloat16));
  cudaMalloc(&ht, 128 * sizeof(__half));
  cudaMalloc(&bt, 128 * sizeof(__nv_bfloat16));
  cudaMalloc(&x, 2 * sizeof(__half));
  cudaMalloc(&e, 128 * sizeof(int));
  block_exponent<__half><<<16, 256>>>(h, e, ht, x);
  block_exponent<__nv_bfloat16><<<16, 256>>>(b, e, bt, x);
  cudaDeviceSynchronize();
  return 0;
}
