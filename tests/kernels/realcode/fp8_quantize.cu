// Per-block FP8 quantization as inference code writes it (cuda_fp8.h): the block's largest
// magnitude is reduced in shared memory, each thread scales its value and stores it as E4M3,
// four to a word through __nv_fp8x4_e4m3, and as raw E5M2 bits with __nv_cvt_float_to_fp8.
// The second kernel reads the block maximum before the barrier that publishes it: a race.
#include <cuda_fp8.h>

#define BLOCK 128

__global__ void quantize(const float4 *in, __nv_fp8x4_e4m3 *out, __nv_fp8_storage_t *raw,
                         float *scales) {
  __shared__ float amax[BLOCK];
  int t = blockIdx.x * BLOCK + threadIdx.x;
  float4 v = in[t];
  amax[threadIdx.x] = fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w)));
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      amax[threadIdx.x] = fmaxf(amax[threadIdx.x], amax[threadIdx.x + s]);
    __syncthreads();
  }
  float scale = amax[0] > 0.0f ? 448.0f / amax[0] : 1.0f;
  out[t] = __nv_fp8x4_e4m3(make_float4(v.x * scale, v.y * scale, v.z * scale, v.w * scale));
  raw[t] = __nv_cvt_float_to_fp8(v.x * scale, __NV_SATFINITE, __NV_E5M2);
  if (threadIdx.x == 0)
    scales[blockIdx.x] = 1.0f / scale;
}

__global__ void quantize_early(const float *in, __nv_fp8_e4m3 *out) {
  __shared__ float amax;
  int t = blockIdx.x * BLOCK + threadIdx.x;
  if (threadIdx.x == 0)
    amax = fabsf(in[blockIdx.x * BLOCK]); // RACE
  __nv_fp8_e4m3 q(in[t] / amax);          // RACE
  __syncthreads();
  out[t] = q;
}

int main() {
  const int blocks = 512;
  float4 *in;
  float *flat, *scales;
  __nv_fp8x4_e4m3 *out;
  __nv_fp8_storage_t *raw;
  __nv_fp8_e4m3 *q;
  cudaMalloc(&in, blocks * BLOCK * sizeof(float4));
  cudaMalloc(&flat, blocks * BLOCK * sizeof(float));
  cudaMalloc(&out, blocks * BLOCK * sizeof(__nv_fp8x4_e4m3));
  cudaMalloc(&raw, blocks * BLOCK);
  cudaMalloc(&q, blocks * BLOCK);
  cudaMalloc(&scales, blocks * sizeof(float));
  quantize<<<blocks, BLOCK>>>(in, out, raw, scales);
  quantize_early<<<blocks, BLOCK>>>(flat, q);
  cudaDeviceSynchronize();
  return 0;
}
