/*
 * gmrace stand-in for <cuda_fp16.h>: __half/half and __half2/half2 as nvcc's
 * header defines them for the code that uses them (conversions in every
 * rounding mode, arithmetic, comparisons, the half math library, the
 * operators of the C++ API, atomicAdd), each computed through float and
 * rounded as the GPU rounds, so a run on the CPU device gets the values a GPU
 * does (the math library's hexp, hsin... are the float functions rounded: a
 * GPU's approximations may differ in the last bit).  A __half is its 16 bits;
 * a __half2 two __halfs (.x low, .y high).
 * As in nvcc's header, `h * 2.0f` and `2.0f * h` are ambiguous (a __half
 * converts to float and to every integer type, and a float to __half): code in
 * the field writes __float2half(2.0f).  Unary `+h` is a __half, so
 * `+__float2half(x) * h` is not.
 * Warp shuffles move a __half's bits, a __half2's as one 32-bit word, as nvcc's
 * header does.
 * Read with a real toolkit too, in place of its header, whose operations are
 * inline PTX that gmrace cannot see through.
 */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

/* With a real toolkit (through toolkit/cuda_fp16.h) its runtime is in already. */
#ifndef __CUDA_RUNTIME_H__
#include "cuda_runtime.h"
#endif

#define __CUDA_FP16_TYPES_EXIST__
#define GMRACE_FP16 static __host__ __device__ __forceinline__

/* float to binary16 bits, rounded to nearest even (overflow to infinity); a
 * NaN is the canonical 0x7fff, as cvt.rn.f16.f32 makes it. */
GMRACE_FP16 unsigned short __gmr_f2h(float f) {
  unsigned int x = __float_as_uint(f);
  unsigned int sign = (x >> 16) & 0x8000u;
  unsigned int exp = (x >> 23) & 0xffu;
  unsigned int man = x & 0x7fffffu;
  if (exp == 0xffu)
    return (unsigned short)(man ? 0x7fffu : (sign | 0x7c00u));
  int e = (int)exp - 112; /* rebiased: 127 - 15 */
  if (e >= 31)
    return (unsigned short)(sign | 0x7c00u);
  unsigned int shift = 13;
  unsigned int h;
  if (e <= 0) { /* a subnormal half, or zero */
    if (e < -10)
      return (unsigned short)sign;
    man |= 0x800000u;
    shift = (unsigned int)(14 - e);
    h = man >> shift;
  } else {
    h = ((unsigned int)e << 10) | (man >> 13);
  }
  unsigned int rem = man & ((1u << shift) - 1u);
  unsigned int halfway = 1u << (shift - 1u);
  if (rem > halfway || (rem == halfway && (h & 1u)))
    h++; /* a carry into the exponent is the right result, up to infinity */
  return (unsigned short)(sign | h);
}

/* The directed roundings of float to binary16 (__float2half_rz/_rd/_ru):
 * `away` says whether an inexact value moves away from zero (up for a
 * positive value under _ru, for a negative one under _rd); otherwise it is
 * truncated, down to the largest finite half. */
GMRACE_FP16 unsigned short __gmr_f2h_directed(float f, bool up, bool down) {
  unsigned int x = __float_as_uint(f);
  unsigned int sign = (x >> 16) & 0x8000u;
  unsigned int a = x & 0x7fffffffu;
  if (a >= 0x7f800000u)
    return (unsigned short)(a > 0x7f800000u ? 0x7fffu : (sign | 0x7c00u));
  bool away = sign ? down : up;
  int e = (int)(a >> 23) - 112;
  unsigned int man = a & 0x7fffffu;
  unsigned int h, rem;
  if (e >= 31) {
    h = 0x7bffu;
    rem = 1u;
  } else if (e < -10) {
    h = 0u;
    rem = a;
  } else if (e <= 0) {
    man |= 0x800000u;
    unsigned int shift = (unsigned int)(14 - e);
    h = man >> shift;
    rem = man & ((1u << shift) - 1u);
  } else {
    h = ((unsigned int)e << 10) | (man >> 13);
    rem = man & 0x1fffu;
  }
  if (rem != 0u && away)
    h++;
  return (unsigned short)(sign | h);
}

/* binary16 bits to float (exact). */
GMRACE_FP16 float __gmr_h2f(unsigned short bits) {
  unsigned int h = bits;
  unsigned int sign = (h & 0x8000u) << 16;
  unsigned int exp = (h >> 10) & 0x1fu;
  unsigned int man = h & 0x3ffu;
  if (exp == 0x1fu)
    return __uint_as_float(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    float f = (float)man * 5.9604644775390625e-8f; /* man * 2^-24 */
    return sign ? -f : f;
  }
  return __uint_as_float(sign | ((exp + 112u) << 23) | (man << 13));
}

/* double to float rounded to odd: a float has more than two bits beyond a
 * half's or a bfloat16's, so rounding it to nearest then gives what rounding
 * the double would (no double rounding). */
GMRACE_FP16 float __gmr_d2f_odd(double d) {
  float f = (float)d;
  if (d == d && (double)f != d) {
    unsigned int u = __float_as_uint(f);
    if (fabs((double)f) > fabs(d))
      u -= 1u; /* rounded away from zero: back to the truncated float */
    f = __uint_as_float(u | 1u);
  }
  return f;
}

/* A 64-bit integer to float rounded to odd, for the same reason (32-bit ones
 * too: a bfloat16 has fewer bits than an int).  Through a double, exact below
 * 2^53; above, the bits a double cannot hold are folded into a sticky bit. */
GMRACE_FP16 float __gmr_ull2f_odd(unsigned long long v) {
  if ((v >> 53) != 0ull)
    return __gmr_d2f_odd((double)((v >> 11) | (unsigned long long)((v & 0x7ffull) != 0ull))) *
           2048.0f;
  return __gmr_d2f_odd((double)v);
}
GMRACE_FP16 float __gmr_ll2f_odd(long long v) {
  float f = __gmr_ull2f_odd(v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
  return v < 0 ? -f : f;
}

/* a * b + c rounded to odd in float, for two halves or two bfloat16s (whose
 * product float holds exactly): rounded to the narrow type it then gives the
 * single rounding of fma.rn.f16.  The sum's error comes from TwoSum. */
GMRACE_FP16 float __gmr_fma_odd(float a, float b, float c) {
  float p = a * b;
  float s = p + c;
  float v = s - p;
  float e = (p - (s - v)) + (c - v);
  if (e != 0.0f && (__float_as_uint(s) & 0x7f800000u) != 0x7f800000u) {
    unsigned int u = __float_as_uint(s);
    if ((e < 0.0f) != (s < 0.0f))
      u -= 1u; /* the exact sum is nearer zero: truncate */
    s = __uint_as_float(u | 1u);
  }
  return s;
}

/* The integer conversions of cvt.rzi and friends: a NaN is 0, out-of-range
 * values saturate.  `r` is already rounded to an integral value. */
GMRACE_FP16 short __gmr_f2short(float r) {
  if (r != r)
    return 0;
  return r <= -32768.0f ? (short)-32768 : r >= 32767.0f ? (short)32767 : (short)r;
}
GMRACE_FP16 unsigned short __gmr_f2ushort(float r) {
  if (r != r || r <= 0.0f)
    return 0;
  return r >= 65535.0f ? (unsigned short)65535 : (unsigned short)r;
}
GMRACE_FP16 signed char __gmr_f2char(float r) {
  if (r != r)
    return 0;
  return r <= -128.0f ? (signed char)-128 : r >= 127.0f ? (signed char)127 : (signed char)r;
}
GMRACE_FP16 unsigned char __gmr_f2uchar(float r) {
  if (r != r || r <= 0.0f)
    return 0;
  return r >= 255.0f ? (unsigned char)255 : (unsigned char)r;
}
/* 64-bit results make a NaN 0x8000000000000000, as cvt.rzi.s64/u64 do. */
GMRACE_FP16 long long __gmr_f2ll(float r) {
  return r != r ? (long long)0x8000000000000000ull : (long long)r;
}
GMRACE_FP16 unsigned long long __gmr_f2ull(float r) {
  return r != r ? 0x8000000000000000ull : (unsigned long long)r;
}

/* Clamped to [0, 1], a NaN to 0 (the .sat of the arithmetic). */
GMRACE_FP16 float __gmr_saturate(float f) {
  return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
}

typedef struct __align__(2) {
  unsigned short x;
} __half_raw;
typedef struct __align__(4) {
  unsigned short x;
  unsigned short y;
} __half2_raw;

struct __nv_bfloat16;

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ __half(float f) : __x(__gmr_f2h(f)) {}
  __host__ __device__ __half(double d) : __x(__gmr_f2h(__gmr_d2f_odd(d))) {}
  /* Every integer of a half's range is exact in float, and one beyond it
   * overflows either way. */
  __host__ __device__ __half(short i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(unsigned short i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(int i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(unsigned int i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(long i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(unsigned long i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(long long i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(unsigned long long i) : __x(__gmr_f2h((float)i)) {}
  /* Defined by <cuda_bf16.h>, as in nvcc's headers. */
  explicit __host__ __device__ __half(const __nv_bfloat16 f);
  __host__ __device__ operator __half_raw() const {
    __half_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ operator float() const { return __gmr_h2f(__x); }
  /* The integer conversions truncate, as nvcc's (__half2int_rz...). */
  __host__ __device__ operator signed char() const { return __gmr_f2char(truncf(__gmr_h2f(__x))); }
  __host__ __device__ operator unsigned char() const { return __gmr_f2uchar(truncf(__gmr_h2f(__x))); }
  __host__ __device__ operator char() const { return (char)__gmr_f2char(truncf(__gmr_h2f(__x))); }
  __host__ __device__ operator short() const { return __gmr_f2short(truncf(__gmr_h2f(__x))); }
  __host__ __device__ operator unsigned short() const { return __gmr_f2ushort(truncf(__gmr_h2f(__x))); }
  __host__ __device__ operator int() const { return (int)__gmr_h2f(__x); }
  __host__ __device__ operator unsigned int() const { return (unsigned int)__gmr_h2f(__x); }
  __host__ __device__ operator long() const { return (long)__gmr_f2ll(__gmr_h2f(__x)); }
  __host__ __device__ operator unsigned long() const {
    return (unsigned long)__gmr_f2ull(__gmr_h2f(__x));
  }
  __host__ __device__ operator long long() const { return __gmr_f2ll(__gmr_h2f(__x)); }
  __host__ __device__ operator unsigned long long() const { return __gmr_f2ull(__gmr_h2f(__x)); }
  __host__ __device__ operator bool() const { return (__x & 0x7fffu) != 0u; }
  /* No assignment operators of its own (nor __half2's, nor the bfloat16
   * types'), unlike nvcc's header: with them clang finds `h2 = {}` ambiguous,
   * which nvcc accepts; the converting constructors assign the same values. */
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &r) {
    x.__x = r.x;
    y.__x = r.y;
  }
  __host__ __device__ operator __half2_raw() const {
    __half2_raw r;
    r.x = x.__x;
    r.y = y.__x;
    return r;
  }
};

typedef __half half;
typedef __half2 half2;
typedef struct __half __half_raw_t;

GMRACE_FP16 __half __gmr_half_bits(unsigned short bits) {
  __half h;
  h.__x = bits;
  return h;
}

/* ---- conversions ---- */
GMRACE_FP16 __half __float2half(float f) { return __half(f); }
GMRACE_FP16 __half __float2half_rn(float f) { return __half(f); }
GMRACE_FP16 __half __float2half_rz(float f) {
  return __gmr_half_bits(__gmr_f2h_directed(f, false, false));
}
GMRACE_FP16 __half __float2half_rd(float f) {
  return __gmr_half_bits(__gmr_f2h_directed(f, false, true));
}
GMRACE_FP16 __half __float2half_ru(float f) {
  return __gmr_half_bits(__gmr_f2h_directed(f, true, false));
}
GMRACE_FP16 __half __double2half(double d) { return __half(d); }
GMRACE_FP16 float __half2float(__half h) { return __gmr_h2f(h.__x); }
GMRACE_FP16 __half __ushort_as_half(unsigned short u) { return __gmr_half_bits(u); }
GMRACE_FP16 unsigned short __half_as_ushort(__half h) { return h.__x; }
GMRACE_FP16 __half __short_as_half(short s) { return __gmr_half_bits((unsigned short)s); }
GMRACE_FP16 short __half_as_short(__half h) { return (short)h.__x; }

/* Integers to half: exact in float within a half's range (see __half(int)). */
#define GMRACE_FP16_FROM_INT(PREFIX, __gmr_I)                                  \
  GMRACE_FP16 __half PREFIX##_rn(__gmr_I i) { return __half((float)i); }       \
  GMRACE_FP16 __half PREFIX##_rz(__gmr_I i) { return __float2half_rz((float)i); } \
  GMRACE_FP16 __half PREFIX##_rd(__gmr_I i) { return __float2half_rd((float)i); } \
  GMRACE_FP16 __half PREFIX##_ru(__gmr_I i) { return __float2half_ru((float)i); }
GMRACE_FP16_FROM_INT(__int2half, int)
GMRACE_FP16_FROM_INT(__uint2half, unsigned int)
GMRACE_FP16_FROM_INT(__short2half, short)
GMRACE_FP16_FROM_INT(__ushort2half, unsigned short)
GMRACE_FP16_FROM_INT(__ll2half, long long)
GMRACE_FP16_FROM_INT(__ull2half, unsigned long long)
#undef GMRACE_FP16_FROM_INT


/* ---- pairs ---- */
GMRACE_FP16 __half2 make_half2(__half x, __half y) { return __half2(x, y); }
GMRACE_FP16 __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
GMRACE_FP16 __half2 __floats2half2_rn(float a, float b) {
  return __half2(__half(a), __half(b));
}
GMRACE_FP16 __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
GMRACE_FP16 float2 __half22float2(__half2 h) {
  return make_float2(__half2float(h.x), __half2float(h.y));
}
GMRACE_FP16 __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
GMRACE_FP16 __half2 __half2half2(__half a) { return __half2(a, a); }
GMRACE_FP16 __half __low2half(__half2 h) { return h.x; }
GMRACE_FP16 __half __high2half(__half2 h) { return h.y; }
GMRACE_FP16 __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
GMRACE_FP16 __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
GMRACE_FP16 __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
GMRACE_FP16 __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

/* ---- what __half and __nv_bfloat16 share: arithmetic, comparisons, math,
 * operators, shuffles, atomics ---- */
#define __GMR_H __half
#define __GMR_H2 __half2
#define __GMR_TOF(h) __gmr_h2f((h).__x)
#define __GMR_OF(f) __gmr_half_bits(__gmr_f2h(f))
#define __GMR_BITS(u) __gmr_half_bits(u)
#define __GMR_EXP_MASK 0x7c00u
#define __GMR_TO(I) __half2##I
#include "gmrace_half_ops.h"

#undef GMRACE_FP16
#endif /* __CUDA_FP16_H__ */
