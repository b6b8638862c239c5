/*
 * gmrace stand-in for <cuda_bf16.h>: __nv_bfloat16 and __nv_bfloat162, the
 * same surface as the stand-in <cuda_fp16.h> (which it includes, as nvcc's
 * does; gmrace_half_ops.h holds what the two share), each operation computed
 * through float and rounded as the GPU rounds.  Integers and doubles reach
 * float rounded to odd first: a bfloat16 has fewer bits than an int.
 */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

#define __CUDA_BF16_TYPES_EXIST__
#define GMRACE_BF16 static __host__ __device__ __forceinline__

/* float to bfloat16 bits, rounded to nearest even; a NaN is the canonical
 * 0x7fff, as cvt.rn.bf16.f32 makes it. */
GMRACE_BF16 unsigned short __gmr_f2bf(float f) {
  unsigned int x = __float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)0x7fffu;
  x += 0x7fffu + ((x >> 16) & 1u);
  return (unsigned short)(x >> 16);
}

/* The directed roundings: truncated, or one step away from zero when
 * inexact and `up` (positive) or `down` (negative) says so; a carry out of
 * the largest finite value is the infinity it should be. */
GMRACE_BF16 unsigned short __gmr_f2bf_directed(float f, bool up, bool down) {
  unsigned int x = __float_as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)0x7fffu;
  bool away = (x & 0x80000000u) ? down : up;
  unsigned int b = x >> 16;
  if ((x & 0xffffu) != 0u && away)
    b++;
  return (unsigned short)b;
}

GMRACE_BF16 float __gmr_bf2f(unsigned short b) {
  return __uint_as_float((unsigned int)b << 16);
}

typedef struct __align__(2) {
  unsigned short x;
} __nv_bfloat16_raw;
typedef struct __align__(4) {
  unsigned short x;
  unsigned short y;
} __nv_bfloat162_raw;

struct __align__(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __nv_bfloat16(float f) : __x(__gmr_f2bf(f)) {}
  __host__ __device__ __nv_bfloat16(double d) : __x(__gmr_f2bf(__gmr_d2f_odd(d))) {}
  __host__ __device__ __nv_bfloat16(short i) : __x(__gmr_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(unsigned short i) : __x(__gmr_f2bf((float)i)) {}
  __host__ __device__ __nv_bfloat16(int i) : __x(__gmr_f2bf(__gmr_ll2f_odd(i))) {}
  __host__ __device__ __nv_bfloat16(unsigned int i) : __x(__gmr_f2bf(__gmr_ull2f_odd(i))) {}
  __host__ __device__ __nv_bfloat16(long i) : __x(__gmr_f2bf(__gmr_ll2f_odd(i))) {}
  __host__ __device__ __nv_bfloat16(unsigned long i) : __x(__gmr_f2bf(__gmr_ull2f_odd(i))) {}
  __host__ __device__ __nv_bfloat16(long long i) : __x(__gmr_f2bf(__gmr_ll2f_odd(i))) {}
  __host__ __device__ __nv_bfloat16(unsigned long long i)
      : __x(__gmr_f2bf(__gmr_ull2f_odd(i))) {}
  explicit __host__ __device__ __nv_bfloat16(const __half h) : __x(__gmr_f2bf(__gmr_h2f(h.__x))) {}
  __host__ __device__ operator __nv_bfloat16_raw() const {
    __nv_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ operator float() const { return __gmr_bf2f(__x); }
  /* The integer conversions truncate, as nvcc's (__bfloat162int_rz...). */
  __host__ __device__ operator signed char() const { return __gmr_f2char(truncf(__gmr_bf2f(__x))); }
  __host__ __device__ operator unsigned char() const { return __gmr_f2uchar(truncf(__gmr_bf2f(__x))); }
  __host__ __device__ operator char() const { return (char)__gmr_f2char(truncf(__gmr_bf2f(__x))); }
  __host__ __device__ operator short() const { return __gmr_f2short(truncf(__gmr_bf2f(__x))); }
  __host__ __device__ operator unsigned short() const {
    return __gmr_f2ushort(truncf(__gmr_bf2f(__x)));
  }
  __host__ __device__ operator int() const { return (int)__gmr_bf2f(__x); }
  __host__ __device__ operator unsigned int() const { return (unsigned int)__gmr_bf2f(__x); }
  __host__ __device__ operator long() const { return (long)__gmr_f2ll(__gmr_bf2f(__x)); }
  __host__ __device__ operator unsigned long() const {
    return (unsigned long)__gmr_f2ull(__gmr_bf2f(__x));
  }
  __host__ __device__ operator long long() const { return __gmr_f2ll(__gmr_bf2f(__x)); }
  __host__ __device__ operator unsigned long long() const { return __gmr_f2ull(__gmr_bf2f(__x)); }
  __host__ __device__ operator bool() const { return (__x & 0x7fffu) != 0u; }
};

/* Declared by <cuda_fp16.h>: a bfloat16 is exact in float. */
__host__ __device__ inline __half::__half(const __nv_bfloat16 f) : __x(__gmr_f2h(__gmr_bf2f(f.__x))) {}

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __nv_bfloat162(const __nv_bfloat162_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  __host__ __device__ operator __nv_bfloat162_raw() const {
    __nv_bfloat162_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

GMRACE_BF16 __nv_bfloat16 __gmr_bf16_bits(unsigned short bits) {
  __nv_bfloat16 b;
  b.__x = bits;
  return b;
}

/* ---- conversions ---- */
GMRACE_BF16 __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
GMRACE_BF16 __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
GMRACE_BF16 __nv_bfloat16 __float2bfloat16_rz(float f) {
  return __gmr_bf16_bits(__gmr_f2bf_directed(f, false, false));
}
GMRACE_BF16 __nv_bfloat16 __float2bfloat16_rd(float f) {
  return __gmr_bf16_bits(__gmr_f2bf_directed(f, false, true));
}
GMRACE_BF16 __nv_bfloat16 __float2bfloat16_ru(float f) {
  return __gmr_bf16_bits(__gmr_f2bf_directed(f, true, false));
}
GMRACE_BF16 __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16(d); }
GMRACE_BF16 float __bfloat162float(__nv_bfloat16 b) { return __gmr_bf2f(b.__x); }
GMRACE_BF16 __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __gmr_bf16_bits(u); }
GMRACE_BF16 unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
GMRACE_BF16 __nv_bfloat16 __short_as_bfloat16(short s) {
  return __gmr_bf16_bits((unsigned short)s);
}
GMRACE_BF16 short __bfloat16_as_short(__nv_bfloat16 b) { return (short)b.__x; }

/* Integers to bfloat16, through a float rounded to odd (16-bit ones are exact). */
#define GMRACE_BF16_FROM_INT(PREFIX, __gmr_I, TOF)                             \
  GMRACE_BF16 __nv_bfloat16 PREFIX##_rn(__gmr_I i) { return __nv_bfloat16(TOF(i)); } \
  GMRACE_BF16 __nv_bfloat16 PREFIX##_rz(__gmr_I i) { return __float2bfloat16_rz(TOF(i)); } \
  GMRACE_BF16 __nv_bfloat16 PREFIX##_rd(__gmr_I i) { return __float2bfloat16_rd(TOF(i)); } \
  GMRACE_BF16 __nv_bfloat16 PREFIX##_ru(__gmr_I i) { return __float2bfloat16_ru(TOF(i)); }
#define GMRACE_BF16_EXACT(i) ((float)(i))
GMRACE_BF16_FROM_INT(__int2bfloat16, int, __gmr_ll2f_odd)
GMRACE_BF16_FROM_INT(__uint2bfloat16, unsigned int, __gmr_ull2f_odd)
GMRACE_BF16_FROM_INT(__short2bfloat16, short, GMRACE_BF16_EXACT)
GMRACE_BF16_FROM_INT(__ushort2bfloat16, unsigned short, GMRACE_BF16_EXACT)
GMRACE_BF16_FROM_INT(__ll2bfloat16, long long, __gmr_ll2f_odd)
GMRACE_BF16_FROM_INT(__ull2bfloat16, unsigned long long, __gmr_ull2f_odd)
#undef GMRACE_BF16_EXACT
#undef GMRACE_BF16_FROM_INT


/* ---- pairs ---- */
GMRACE_BF16 __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}
GMRACE_BF16 __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__nv_bfloat16(f), __nv_bfloat16(f));
}
GMRACE_BF16 __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
GMRACE_BF16 __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __floats2bfloat162_rn(f.x, f.y);
}
GMRACE_BF16 float2 __bfloat1622float2(__nv_bfloat162 b) {
  return make_float2(__bfloat162float(b.x), __bfloat162float(b.y));
}
GMRACE_BF16 __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
GMRACE_BF16 __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
GMRACE_BF16 __nv_bfloat16 __low2bfloat16(__nv_bfloat162 b) { return b.x; }
GMRACE_BF16 __nv_bfloat16 __high2bfloat16(__nv_bfloat162 b) { return b.y; }
GMRACE_BF16 __nv_bfloat162 __low2bfloat162(__nv_bfloat162 b) { return __nv_bfloat162(b.x, b.x); }
GMRACE_BF16 __nv_bfloat162 __high2bfloat162(__nv_bfloat162 b) {
  return __nv_bfloat162(b.y, b.y);
}
GMRACE_BF16 __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
GMRACE_BF16 __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}

/* ---- what __half and __nv_bfloat16 share ---- */
#define __GMR_H __nv_bfloat16
#define __GMR_H2 __nv_bfloat162
#define __GMR_TOF(h) __gmr_bf2f((h).__x)
#define __GMR_OF(f) __gmr_bf16_bits(__gmr_f2bf(f))
#define __GMR_BITS(u) __gmr_bf16_bits(u)
#define __GMR_EXP_MASK 0x7f80u
#define __GMR_TO(I) __bfloat162##I
#include "gmrace_half_ops.h"

#undef GMRACE_BF16
#endif /* __CUDA_BF16_H__ */
