/*
 * gmrace stand-in for <cuda_fp8.h> (CUDA 12's 8-bit floats): the storage
 * types, the __nv_cvt_* conversions and the __nv_fp8{,x2,x4}_{e4m3,e5m2}
 * classes, with the rounding of nvcc's header: to nearest even, from the
 * exact double of the value; __NV_SATFINITE clamps an overflow (infinity
 * included) to the largest finite value, __NV_NOSAT makes it E5M2's infinity
 * or E4M3's NaN (E4M3 has no infinity: S.1111.111 is its only NaN).  The
 * classes convert with __NV_SATFINITE, explicitly only, as nvcc's do.
 * Widening is exact, through __half as nvcc's header goes: a NaN becomes the
 * canonical 0x7fff.
 * Read with a real toolkit too, in place of its header (whose sm_89 paths are
 * inline PTX), like <cuda_fp16.h>.
 */
#ifndef __CUDA_FP8_H__
#define __CUDA_FP8_H__

#include "cuda_fp16.h"
#include "cuda_bf16.h"

#define __CUDA_FP8_TYPES_EXIST__
#define GMRACE_FP8 static __host__ __device__ __forceinline__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t {
  __NV_NOSAT,
  __NV_SATFINITE,
} __nv_saturation_t;

typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2,
} __nv_fp8_interpretation_t;

/* ---- narrowing ---- */

/* The value is m * 2^(e - 52) (m with its implicit bit); it is rounded to a
 * multiple of the format's unit at its exponent, 2^(max(e, emin) - mantissa
 * bits), whose count is the code itself once the exponent above emin is
 * added: a carry out of the mantissa moves into the exponent, as it should. */
GMRACE_FP8 __nv_fp8_storage_t
__nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                       const __nv_fp8_interpretation_t fp8_interpretation) {
  unsigned long long bits = (unsigned long long)__double_as_longlong(x);
  unsigned int sign = (unsigned int)(bits >> 56) & 0x80u;
  unsigned long long a = bits & 0x7fffffffffffffffull;
  bool e5m2 = fp8_interpretation == __NV_E5M2;
  if (a > 0x7ff0000000000000ull) /* E5M2 keeps the top of a NaN's payload */
    return (__nv_fp8_storage_t)(sign | (e5m2 ? 0x7eu | (unsigned int)((bits >> 50) & 3u) : 0x7fu));
  unsigned int mbits = e5m2 ? 2u : 3u;
  int emin = e5m2 ? -14 : -6;
  unsigned int largest = e5m2 ? 0x7bu : 0x7eu;
  unsigned int code = 0u;
  if (a == 0x7ff0000000000000ull) {
    code = largest + 1u; /* an infinity overflows */
  } else if (a != 0ull) {
    int e = (int)(a >> 52) - 1023;
    unsigned long long m = (a & 0xfffffffffffffull) | (1ull << 52);
    int floor_e = e < emin ? emin : e;
    int shift = 52 + floor_e - (int)mbits - e;
    if (shift <= 54) { /* further down, below half the smallest subnormal */
      unsigned long long r = m >> shift;
      unsigned long long rem = m & ((1ull << shift) - 1ull);
      unsigned long long halfway = 1ull << (shift - 1);
      if (rem > halfway || (rem == halfway && (r & 1ull)))
        r++;
      code = (unsigned int)r + ((unsigned int)(floor_e - emin) << mbits);
    }
  }
  if (code > largest)
    code = saturate == __NV_SATFINITE ? largest : (e5m2 ? 0x7cu : 0x7fu);
  return (__nv_fp8_storage_t)(sign | code);
}

/* A float NaN is first made the canonical positive one, as nvcc's header
 * does: 0x7f in either format. */
GMRACE_FP8 __nv_fp8_storage_t
__nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                      const __nv_fp8_interpretation_t fp8_interpretation) {
  if (x != x)
    return (__nv_fp8_storage_t)0x7fu;
  return __nv_cvt_double_to_fp8((double)x, saturate, fp8_interpretation);
}

GMRACE_FP8 __nv_fp8x2_storage_t
__nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                          const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      ((unsigned int)__nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation) << 8) |
      __nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation));
}
GMRACE_FP8 __nv_fp8x2_storage_t
__nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                         const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      ((unsigned int)__nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation) << 8) |
      __nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation));
}
GMRACE_FP8 __nv_fp8_storage_t
__nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                        const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(__gmr_h2f(x.x), saturate, fp8_interpretation);
}
GMRACE_FP8 __nv_fp8x2_storage_t
__nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                           const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      ((unsigned int)__nv_cvt_float_to_fp8(__gmr_h2f(x.y), saturate, fp8_interpretation) << 8) |
      __nv_cvt_float_to_fp8(__gmr_h2f(x.x), saturate, fp8_interpretation));
}
GMRACE_FP8 __nv_fp8_storage_t
__nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                            const __nv_fp8_interpretation_t fp8_interpretation) {
  return __nv_cvt_float_to_fp8(__gmr_bf2f(x.x), saturate, fp8_interpretation);
}
GMRACE_FP8 __nv_fp8x2_storage_t
__nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return (__nv_fp8x2_storage_t)(
      ((unsigned int)__nv_cvt_float_to_fp8(__gmr_bf2f(x.y), saturate, fp8_interpretation) << 8) |
      __nv_cvt_float_to_fp8(__gmr_bf2f(x.x), saturate, fp8_interpretation));
}

/* ---- widening (exact) ---- */

/* E5M2 is the top byte of a binary16; an E4M3 value, a multiple of 2^-9
 * below 2^9, is exact in float and then in binary16. */
GMRACE_FP8 __half_raw
__nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                        const __nv_fp8_interpretation_t fp8_interpretation) {
  unsigned int b = x;
  unsigned int sign = (b & 0x80u) << 8;
  unsigned int e = (b >> 3) & 0xfu, m = b & 7u;
  __half_raw r;
  if (fp8_interpretation == __NV_E5M2)
    r.x = (unsigned short)((b & 0x7fu) > 0x7cu ? 0x7fffu : b << 8);
  else if ((b & 0x7fu) == 0x7fu)
    r.x = (unsigned short)0x7fffu;
  else
    r.x = (unsigned short)(sign | __gmr_f2h((float)(e ? (8u | m) << (e - 1u) : m) *
                                            0.001953125f /* 2^-9 */));
  return r;
}
GMRACE_FP8 __half2_raw
__nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                           const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw r;
  r.x = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x & 0xffu), fp8_interpretation).x;
  r.y = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)(x >> 8), fp8_interpretation).x;
  return r;
}

GMRACE_FP8 float __gmr_fp8_to_float(__nv_fp8_storage_t x, __nv_fp8_interpretation_t i) {
  return __gmr_h2f(__nv_cvt_fp8_to_halfraw(x, i).x);
}

/* ---- the classes ---- */
#define GMRACE_FP8_CLASSES(KIND, INTERP)                                       \
  struct __align__(1) __nv_fp8_##KIND {                                        \
    __nv_fp8_storage_t __x;                                                    \
    __nv_fp8_##KIND() = default;                                               \
    explicit __host__ __device__ __nv_fp8_##KIND(const __half f)               \
        : __x(__nv_cvt_float_to_fp8(__gmr_h2f(f.__x), __NV_SATFINITE, INTERP)) {} \
    explicit __host__ __device__ __nv_fp8_##KIND(const __nv_bfloat16 f)        \
        : __x(__nv_cvt_float_to_fp8(__gmr_bf2f(f.__x), __NV_SATFINITE, INTERP)) {} \
    explicit __host__ __device__ __nv_fp8_##KIND(const float f)                \
        : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, INTERP)) {}             \
    explicit __host__ __device__ __nv_fp8_##KIND(const double f)               \
        : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, INTERP)) {}            \
    /* Integers through float, as nvcc's header converts them. */              \
    explicit __host__ __device__ __nv_fp8_##KIND(const unsigned short v)       \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const unsigned int v)         \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const unsigned long v)        \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const unsigned long long v)   \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const short v)                \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const int v)                  \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const long v)                 \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ __nv_fp8_##KIND(const long long v)            \
        : __x(__nv_cvt_float_to_fp8((float)v, __NV_SATFINITE, INTERP)) {}      \
    explicit __host__ __device__ operator __half() const {                     \
      return __gmr_half_bits(__nv_cvt_fp8_to_halfraw(__x, INTERP).x);          \
    }                                                                          \
    explicit __host__ __device__ operator float() const {                      \
      return __gmr_fp8_to_float(__x, INTERP);                                  \
    }                                                                          \
    /* Exact, truncated as nvcc's header truncates it. */                      \
    explicit __host__ __device__ operator __nv_bfloat16() const {              \
      return __gmr_bf16_bits(                                                  \
          (unsigned short)(__float_as_uint(__gmr_fp8_to_float(__x, INTERP)) >> 16)); \
    }                                                                          \
    explicit __host__ __device__ operator double() const {                     \
      return (double)__gmr_fp8_to_float(__x, INTERP);                          \
    }                                                                          \
    /* Truncated and saturated, a NaN 0, as nvcc's header converts them. */    \
    explicit __host__ __device__ operator unsigned char() const {              \
      return __gmr_f2uchar(truncf(__gmr_fp8_to_float(__x, INTERP)));           \
    }                                                                          \
    explicit __host__ __device__ operator signed char() const {                \
      return __gmr_f2char(truncf(__gmr_fp8_to_float(__x, INTERP)));            \
    }                                                                          \
    explicit __host__ __device__ operator char() const {                       \
      return (char)__gmr_f2char(truncf(__gmr_fp8_to_float(__x, INTERP)));      \
    }                                                                          \
    explicit __host__ __device__ operator unsigned short() const {             \
      return __gmr_f2ushort(truncf(__gmr_fp8_to_float(__x, INTERP)));          \
    }                                                                          \
    explicit __host__ __device__ operator short() const {                      \
      return __gmr_f2short(truncf(__gmr_fp8_to_float(__x, INTERP)));           \
    }                                                                          \
    explicit __host__ __device__ operator unsigned int() const {               \
      return (unsigned int)__gmr_fp8_to_float(__x, INTERP);                    \
    }                                                                          \
    explicit __host__ __device__ operator int() const {                        \
      return (int)__gmr_fp8_to_float(__x, INTERP);                             \
    }                                                                          \
    explicit __host__ __device__ operator unsigned long() const {              \
      return (unsigned long)__gmr_f2ull(__gmr_fp8_to_float(__x, INTERP));      \
    }                                                                          \
    explicit __host__ __device__ operator long() const {                       \
      return (long)__gmr_f2ll(__gmr_fp8_to_float(__x, INTERP));                \
    }                                                                          \
    explicit __host__ __device__ operator unsigned long long() const {         \
      return (unsigned long long)__gmr_f2ull(__gmr_fp8_to_float(__x, INTERP)); \
    }                                                                          \
    explicit __host__ __device__ operator long long() const {                  \
      return (long long)__gmr_f2ll(__gmr_fp8_to_float(__x, INTERP));           \
    }                                                                          \
    explicit __host__ __device__ operator bool() const { return (__x & 0x7fu) != 0u; } \
  };                                                                           \
  struct __align__(2) __nv_fp8x2_##KIND {                                      \
    __nv_fp8x2_storage_t __x;                                                  \
    __nv_fp8x2_##KIND() = default;                                             \
    explicit __host__ __device__ __nv_fp8x2_##KIND(const __half2 f)            \
        : __x(__nv_cvt_halfraw2_to_fp8x2((__half2_raw)f, __NV_SATFINITE, INTERP)) {} \
    explicit __host__ __device__ __nv_fp8x2_##KIND(const __nv_bfloat162 f)     \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)f, __NV_SATFINITE, \
                                             INTERP)) {}                       \
    explicit __host__ __device__ __nv_fp8x2_##KIND(const float2 f)             \
        : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, INTERP)) {}          \
    explicit __host__ __device__ __nv_fp8x2_##KIND(const double2 f)            \
        : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, INTERP)) {}         \
    explicit __host__ __device__ operator __half2() const {                    \
      return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, INTERP));                 \
    }                                                                          \
    explicit __host__ __device__ operator float2() const {                     \
      return make_float2(__gmr_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), INTERP), \
                         __gmr_fp8_to_float((__nv_fp8_storage_t)(__x >> 8), INTERP)); \
    }                                                                          \
  };                                                                           \
  struct __align__(4) __nv_fp8x4_##KIND {                                      \
    __nv_fp8x4_storage_t __x;                                                  \
    __nv_fp8x4_##KIND() = default;                                             \
    explicit __host__ __device__ __nv_fp8x4_##KIND(const __half2 lo, const __half2 hi) \
        : __x((unsigned int)__nv_cvt_halfraw2_to_fp8x2((__half2_raw)lo, __NV_SATFINITE, INTERP) | \
              ((unsigned int)__nv_cvt_halfraw2_to_fp8x2((__half2_raw)hi, __NV_SATFINITE, \
                                                        INTERP) << 16)) {}     \
    explicit __host__ __device__ __nv_fp8x4_##KIND(const __nv_bfloat162 lo,    \
                                                   const __nv_bfloat162 hi)    \
        : __x((unsigned int)__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)lo, \
                                                           __NV_SATFINITE, INTERP) | \
              ((unsigned int)__nv_cvt_bfloat16raw2_to_fp8x2((__nv_bfloat162_raw)hi, \
                                                            __NV_SATFINITE, INTERP) << 16)) {} \
    explicit __host__ __device__ __nv_fp8x4_##KIND(const float4 f)             \
        : __x((unsigned int)__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, \
                                                     INTERP) |                 \
              ((unsigned int)__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, \
                                                      INTERP) << 16)) {}       \
    explicit __host__ __device__ __nv_fp8x4_##KIND(const double4 f)            \
        : __x((unsigned int)__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, \
                                                      INTERP) |                \
              ((unsigned int)__nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, \
                                                       INTERP) << 16)) {}      \
    explicit __host__ __device__ operator float4() const {                     \
      return make_float4(__gmr_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), INTERP), \
                         __gmr_fp8_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xffu), INTERP), \
                         __gmr_fp8_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xffu), INTERP), \
                         __gmr_fp8_to_float((__nv_fp8_storage_t)(__x >> 24), INTERP)); \
    }                                                                          \
  };
GMRACE_FP8_CLASSES(e5m2, __NV_E5M2)
GMRACE_FP8_CLASSES(e4m3, __NV_E4M3)
#undef GMRACE_FP8_CLASSES

#undef GMRACE_FP8
#endif /* __CUDA_FP8_H__ */
