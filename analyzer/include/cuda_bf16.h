/*
 * gmrace stand-in for <cuda_bf16.h>: __nv_bfloat16 and __nv_bfloat162, the
 * same surface as the stand-in <cuda_fp16.h> (which it includes, as nvcc's
 * does), each operation computed through float and rounded to nearest even.
 */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

#define GMRACE_BF16 static __host__ __device__ __forceinline__

/* float to bfloat16 bits, rounded to nearest even; a NaN stays a quiet NaN. */
GMRACE_BF16 unsigned short __gmr_f2bf(float f) {
  unsigned int x = __float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}

GMRACE_BF16 float __gmr_bf2f(unsigned short b) {
  return __uint_as_float((unsigned int)b << 16);
}

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(float f) : __x(__gmr_f2bf(f)) {}
  __host__ __device__ __nv_bfloat16(double f) : __x(__gmr_f2bf((float)f)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__gmr_f2bf((float)i)) {}
  __host__ __device__ operator float() const { return __gmr_bf2f(__x); }
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

GMRACE_BF16 __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
GMRACE_BF16 __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
GMRACE_BF16 float __bfloat162float(__nv_bfloat16 b) { return __gmr_bf2f(b.__x); }
GMRACE_BF16 __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__nv_bfloat16(f), __nv_bfloat16(f));
}
GMRACE_BF16 __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
GMRACE_BF16 float __low2float(__nv_bfloat162 b) { return __bfloat162float(b.x); }
GMRACE_BF16 float __high2float(__nv_bfloat162 b) { return __bfloat162float(b.y); }
GMRACE_BF16 __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}

#define GMRACE_BF16_BINARY(NAME, OP)                                           \
  GMRACE_BF16 __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) {           \
    return __nv_bfloat16(__bfloat162float(a) OP __bfloat162float(b));          \
  }                                                                            \
  GMRACE_BF16 __nv_bfloat162 NAME##2(__nv_bfloat162 a, __nv_bfloat162 b) {     \
    return __nv_bfloat162(NAME(a.x, b.x), NAME(a.y, b.y));                     \
  }                                                                            \
  GMRACE_BF16 __nv_bfloat16 operator OP(const __nv_bfloat16 &a,                \
                                        const __nv_bfloat16 &b) {              \
    return NAME(a, b);                                                         \
  }
GMRACE_BF16_BINARY(__hadd, +)
GMRACE_BF16_BINARY(__hsub, -)
GMRACE_BF16_BINARY(__hmul, *)
#undef GMRACE_BF16_BINARY
GMRACE_BF16 __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __nv_bfloat16(fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)));
}
GMRACE_BF16 __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

#undef GMRACE_BF16
#endif /* __CUDA_BF16_H__ */
