// A warp reduction of `half2` values with `__shfl_xor_sync`, as attention kernels write it
// (cuda_fp16.h's shuffles of `__half` and `__half2`). Lane 0 of each warp writes its warp's
// sum: one writer per element, safe.
#include <cuda_fp16.h>

__device__ half2 warp_sum(half2 v) {
  for (int mask = 16; mask > 0; mask >>= 1)
    v = __hadd2(v, __shfl_xor_sync(0xffffffff, v, mask));
  return v;
}

__global__ void reduce(const half2 *in, half2 *out, half first) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  half2 s = warp_sum(in[t]);
  half lead = __shfl_sync(0xffffffff, first, 0);
  if (threadIdx.x % 32 == 0)
    out[t / 32] = __hadd2(s, __half2half2(lead));
}

int main() {
  half2 *in, *out;
  cudaMalloc(&in, 1024 * sizeof(half2));
  cudaMalloc(&out, 32 * sizeof(half2));
  reduce<<<4, 256>>>(in, out, __float2half(1.0f));
  cudaDeviceSynchronize();
  return 0;
}
