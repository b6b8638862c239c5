// cuda_fp8.h: the storage types, the enums, the __nv_cvt_* functions and the six classes
// with their explicit conversions, as nvcc's header declares them (addBiasQKV, vLLM's KV
// cache and f8cast use these).
#include <cuda_fp8.h>
#include <type_traits>

static_assert(sizeof(__nv_fp8_e4m3) == 1 && alignof(__nv_fp8_e4m3) == 1, "e4m3");
static_assert(sizeof(__nv_fp8x2_e5m2) == 2 && alignof(__nv_fp8x2_e5m2) == 2, "x2");
static_assert(sizeof(__nv_fp8x4_e4m3) == 4 && alignof(__nv_fp8x4_e4m3) == 4, "x4");
static_assert(std::is_same<__nv_fp8_storage_t, unsigned char>::value, "storage");
static_assert(std::is_same<__nv_fp8x4_storage_t, unsigned int>::value, "storage");
static_assert(!std::is_convertible<float, __nv_fp8_e4m3>::value, "explicit, as with nvcc");
static_assert(!std::is_convertible<__nv_fp8_e5m2, float>::value, "explicit, as with nvcc");
static_assert(std::is_trivially_default_constructible<__nv_fp8_e4m3>::value, "= default");
#ifndef __CUDA_FP8_TYPES_EXIST__
#error "__CUDA_FP8_TYPES_EXIST__"
#endif

__global__ void fp8_api(const float *in, __nv_fp8_e4m3 *q, __nv_fp8x4_e5m2 *q4,
                        unsigned char *bits, float *out, __nv_bfloat162 *b2) {
  int t = threadIdx.x;
  __nv_fp8_interpretation_t kind = t & 1 ? __NV_E5M2 : __NV_E4M3;
  __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(in[t], __NV_SATFINITE, kind);
  __nv_fp8x2_storage_t s2 = __nv_cvt_float2_to_fp8x2(make_float2(in[t], 1.0f), __NV_NOSAT, kind);
  s2 ^= __nv_cvt_double2_to_fp8x2(make_double2(0.5, -2.0), __NV_SATFINITE, __NV_E4M3);
  s ^= __nv_cvt_double_to_fp8(1e9, __NV_NOSAT, __NV_E5M2);
  s ^= __nv_cvt_halfraw_to_fp8(__half_raw(__float2half(in[t])), __NV_SATFINITE, kind);
  s ^= __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(in[t])), __NV_SATFINITE, kind);
  s2 ^= __nv_cvt_halfraw2_to_fp8x2(__half2_raw(__float2half2_rn(in[t])), __NV_SATFINITE, kind);
  s2 ^= __nv_cvt_bfloat16raw2_to_fp8x2(__nv_bfloat162_raw(b2[t]), __NV_SATFINITE, kind);
  __half_raw h = __nv_cvt_fp8_to_halfraw(s, kind);
  __half2_raw h2 = __nv_cvt_fp8x2_to_halfraw2(s2, kind);
  bits[t] = s;
  q[t] = __nv_fp8_e4m3(in[t]);
  q[t + 32] = __nv_fp8_e4m3(__half(h));
  q[t + 64] = __nv_fp8_e4m3(__float2bfloat16(in[t]));
  q[t + 96] = __nv_fp8_e4m3(t);
  q4[t] = __nv_fp8x4_e5m2(b2[t], b2[t + 1]);
  q4[t + 32] = __nv_fp8x4_e5m2(__half2(h2), __half2(h2));
  q4[t + 64] = __nv_fp8x4_e5m2(make_float4(1.0f, 2.0f, 3.0f, in[t]));
  float4 f4 = static_cast<float4>(q4[t]);
  __nv_fp8x2_e4m3 p(make_float2(in[t], -in[t]));
  float2 f2 = static_cast<float2>(p);
  __half2 hh = static_cast<__half2>(p);
  __nv_fp8_e5m2 e(2.5);
  out[t] = (float)q[t] + f4.w + f2.y + __low2float(hh) + (float)(double)e +
           (float)(int)q[t] + (float)(unsigned char)e + (bool)e + __bfloat162float((__nv_bfloat16)q[t]) +
           __half2float((__half)e) + (float)(long long)q[t];
}
