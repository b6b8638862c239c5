// cuda_fp16.h / cuda_bf16.h: layouts, conversions, arithmetic and operators, in device code
// and in host code.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static_assert(sizeof(half) == 2 && alignof(half) == 2, "half");
static_assert(sizeof(half2) == 4 && alignof(half2) == 4, "half2");
static_assert(sizeof(nv_bfloat16) == 2 && sizeof(nv_bfloat162) == 4, "bf16");

__global__ void dot(const half2 *a, const half2 *b, float *out, int n) {
  __shared__ half2 s[64];
  half2 acc = __float2half2_rn(0.f);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc = __hfma2(a[i], b[i], acc);
  s[threadIdx.x] = __hadd2(acc, __floats2half2_rn(0.f, 0.f));
  __syncthreads();
  half h = __low2half(s[threadIdx.x]) + __high2half(s[threadIdx.x]);
  h *= __float2half(2.0f);
  if (h > __float2half(0.5f))
    out[threadIdx.x] = __low2float(s[threadIdx.x]) + __half2float(h);
  nv_bfloat16 b16 = __float2bfloat16(__high2float(s[0]));
  out[blockIdx.x] = __bfloat162float(b16 * b16);
}

int main() {
  half2 h = __floats2half2_rn(1.0f, 2.0f);
  float f = __high2float(h);
  return f > 1.5f ? 0 : 1;
}
