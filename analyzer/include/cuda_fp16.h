/*
 * gmrace stand-in for <cuda_fp16.h>: __half/half and __half2/half2 as nvcc's
 * header defines them for the code that uses them (conversions, arithmetic,
 * comparisons, the operators of the C++ API), each computed through float and
 * rounded to nearest even, so a run on the CPU device gets the values a GPU
 * does.  A __half is its 16 bits; a __half2 two __halfs (.x low, .y high).
 * As in nvcc's header, `h * 2.0f` is ambiguous (a __half converts to float and
 * a float to __half): code in the field writes __float2half(2.0f).
 * Warp shuffles move a __half's bits, a __half2's as one 32-bit word, as nvcc's
 * header does. Not here: half atomics, the half math library (hexp...).
 * Read with a real toolkit too, in place of its header, whose operations are
 * inline PTX that gmrace cannot see through.
 */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

/* With a real toolkit (through toolkit/cuda_fp16.h) its runtime is in already. */
#ifndef __CUDA_RUNTIME_H__
#include "cuda_runtime.h"
#endif

#define GMRACE_FP16 static __host__ __device__ __forceinline__

/* float to binary16 bits, rounded to nearest even (overflow to infinity). */
GMRACE_FP16 unsigned short __gmr_f2h(float f) {
  unsigned int x = __float_as_uint(f);
  unsigned int sign = (x >> 16) & 0x8000u;
  unsigned int exp = (x >> 23) & 0xffu;
  unsigned int man = x & 0x7fffffu;
  if (exp == 0xffu)
    return (unsigned short)(sign | 0x7c00u | (man ? 0x200u : 0u));
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

struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(float f) : __x(__gmr_f2h(f)) {}
  __host__ __device__ __half(double f) : __x(__gmr_f2h((float)f)) {}
  __host__ __device__ __half(int i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ __half(unsigned int i) : __x(__gmr_f2h((float)i)) {}
  __host__ __device__ operator float() const { return __gmr_h2f(__x); }
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
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
GMRACE_FP16 float __half2float(__half h) { return __gmr_h2f(h.__x); }
GMRACE_FP16 __half __int2half_rn(int i) { return __half((float)i); }
GMRACE_FP16 int __half2int_rz(__half h) { return (int)__half2float(h); }
GMRACE_FP16 __half __ushort_as_half(unsigned short u) { return __gmr_half_bits(u); }
GMRACE_FP16 unsigned short __half_as_ushort(__half h) { return h.__x; }
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
GMRACE_FP16 float __low2float(__half2 h) { return __half2float(h.x); }
GMRACE_FP16 float __high2float(__half2 h) { return __half2float(h.y); }
GMRACE_FP16 __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
GMRACE_FP16 __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

/* ---- arithmetic, through float ---- */
#define GMRACE_FP16_BINARY(NAME, OP)                                           \
  GMRACE_FP16 __half NAME(__half a, __half b) {                                \
    return __half(__half2float(a) OP __half2float(b));                         \
  }                                                                            \
  GMRACE_FP16 __half2 NAME##2(__half2 a, __half2 b) {                          \
    return __half2(NAME(a.x, b.x), NAME(a.y, b.y));                            \
  }
GMRACE_FP16_BINARY(__hadd, +)
GMRACE_FP16_BINARY(__hsub, -)
GMRACE_FP16_BINARY(__hmul, *)
#undef GMRACE_FP16_BINARY
GMRACE_FP16 __half __hdiv(__half a, __half b) {
  return __half(__half2float(a) / __half2float(b));
}
GMRACE_FP16 __half2 __h2div(__half2 a, __half2 b) {
  return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
GMRACE_FP16 __half __hfma(__half a, __half b, __half c) {
  return __half(fmaf(__half2float(a), __half2float(b), __half2float(c)));
}
GMRACE_FP16 __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
GMRACE_FP16 __half __hneg(__half a) { return __gmr_half_bits(a.__x ^ 0x8000u); }
GMRACE_FP16 __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
GMRACE_FP16 __half __habs(__half a) { return __gmr_half_bits(a.__x & 0x7fffu); }
GMRACE_FP16 __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }

/* ---- comparisons ---- */
#define GMRACE_FP16_COMPARE(NAME, OP)                                          \
  GMRACE_FP16 bool NAME(__half a, __half b) {                                  \
    return __half2float(a) OP __half2float(b);                                 \
  }
GMRACE_FP16_COMPARE(__heq, ==)
GMRACE_FP16_COMPARE(__hne, !=)
GMRACE_FP16_COMPARE(__hlt, <)
GMRACE_FP16_COMPARE(__hle, <=)
GMRACE_FP16_COMPARE(__hgt, >)
GMRACE_FP16_COMPARE(__hge, >=)
#undef GMRACE_FP16_COMPARE
GMRACE_FP16 __half __hmax(__half a, __half b) { return __hgt(a, b) ? a : b; }
GMRACE_FP16 __half __hmin(__half a, __half b) { return __hlt(a, b) ? a : b; }
GMRACE_FP16 bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }

/* ---- the C++ operators ---- */
#define GMRACE_FP16_OPERATOR(OP, FN)                                           \
  GMRACE_FP16 __half operator OP(const __half &a, const __half &b) {           \
    return FN(a, b);                                                           \
  }                                                                            \
  GMRACE_FP16 __half &operator OP##=(__half &a, const __half &b) {             \
    a = FN(a, b);                                                              \
    return a;                                                                  \
  }                                                                            \
  GMRACE_FP16 __half2 operator OP(const __half2 &a, const __half2 &b) {        \
    return FN##2(a, b);                                                        \
  }                                                                            \
  GMRACE_FP16 __half2 &operator OP##=(__half2 &a, const __half2 &b) {          \
    a = FN##2(a, b);                                                           \
    return a;                                                                  \
  }
GMRACE_FP16_OPERATOR(+, __hadd)
GMRACE_FP16_OPERATOR(-, __hsub)
GMRACE_FP16_OPERATOR(*, __hmul)
#undef GMRACE_FP16_OPERATOR
GMRACE_FP16 __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
GMRACE_FP16 __half operator-(const __half &a) { return __hneg(a); }
GMRACE_FP16 bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
GMRACE_FP16 bool operator!=(const __half &a, const __half &b) { return __hne(a, b); }
GMRACE_FP16 bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
GMRACE_FP16 bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
GMRACE_FP16 bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
GMRACE_FP16 bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

/* ---- warp shuffles: the bits through the 32-bit shuffle, as nvcc's header ---- */
GMRACE_FP16 unsigned int __gmr_half2_bits(__half2 h) {
  return (unsigned int)h.x.__x | ((unsigned int)h.y.__x << 16);
}
GMRACE_FP16 __half2 __gmr_bits_half2(unsigned int u) {
  return __half2(__gmr_half_bits((unsigned short)(u & 0xffffu)),
                 __gmr_half_bits((unsigned short)(u >> 16)));
}
#define GMRACE_FP16_SHUFFLE(NAME, LANE)                                        \
  static __device__ __forceinline__ __half NAME(unsigned int mask, __half v,   \
                                                LANE lane, int width = 32) {   \
    return __gmr_half_bits((unsigned short)NAME(mask, (unsigned int)v.__x,     \
                                                lane, width));                 \
  }                                                                            \
  static __device__ __forceinline__ __half2 NAME(unsigned int mask, __half2 v, \
                                                 LANE lane, int width = 32) {  \
    return __gmr_bits_half2(NAME(mask, __gmr_half2_bits(v), lane, width));     \
  }
GMRACE_FP16_SHUFFLE(__shfl_sync, int)
GMRACE_FP16_SHUFFLE(__shfl_up_sync, unsigned int)
GMRACE_FP16_SHUFFLE(__shfl_down_sync, unsigned int)
GMRACE_FP16_SHUFFLE(__shfl_xor_sync, int)
#undef GMRACE_FP16_SHUFFLE

#undef GMRACE_FP16
#endif /* __CUDA_FP16_H__ */
