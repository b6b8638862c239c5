/*
 * gmrace stand-in CUDA headers: the API that nvcc's <cuda_fp16.h> and
 * <cuda_bf16.h> both define, under the same names, for their 16-bit type and
 * its pair: arithmetic, comparisons, the math library, the C++ operators, the
 * warp shuffles and atomicAdd.
 *
 * Internal part of cuda_fp16.h and cuda_bf16.h, included by each (no include
 * guard) with these macros defined, and undefined at the end:
 *   __GMR_H, __GMR_H2   the type and its pair (.x low, .y high)
 *   __GMR_TOF(h)        its value as a float (exact)
 *   __GMR_OF(f)         a float rounded to nearest even
 *   __GMR_BITS(u)       the value of these bits
 *   __GMR_EXP_MASK      the exponent field (all ones: an infinity or a NaN)
 *   __GMR_TO(I)         the name of the conversion to I (__half2int, ...)
 * Every operation is computed through float and rounded once: float has more
 * than twice the bits of either type plus two, so a sum, difference, product,
 * quotient or square root rounds as if computed in the type itself; a fused
 * multiply-add goes through a float rounded to odd (__gmr_fma_odd).
 */

#define GMRACE_HALF_OPS static __host__ __device__ __forceinline__

/* NVIDIA's canonical NaN, whatever the operands' NaNs were. */
#define __GMR_NAN __GMR_BITS(0x7fffu)

GMRACE_HALF_OPS bool __hisnan(__GMR_H a) { return (a.__x & 0x7fffu) > __GMR_EXP_MASK; }
GMRACE_HALF_OPS __GMR_H2 __hisnan2(__GMR_H2 a) {
  return __GMR_H2(__GMR_OF(__hisnan(a.x) ? 1.0f : 0.0f), __GMR_OF(__hisnan(a.y) ? 1.0f : 0.0f));
}
/* -1 for negative infinity, 1 for positive infinity, else 0. */
GMRACE_HALF_OPS int __hisinf(__GMR_H a) {
  return (a.__x & 0x7fffu) == __GMR_EXP_MASK ? ((a.__x & 0x8000u) ? -1 : 1) : 0;
}

/* ---- to integers, rounded then saturated (a NaN is 0) ---- */
/* The name is expanded before it is pasted to the rounding suffix. */
#define GMRACE_HALF_TO_INT(NAME, I, SAT) GMRACE_HALF_TO_INT_(NAME, I, SAT)
#define GMRACE_HALF_TO_INT_(NAME, I, SAT)                                      \
  GMRACE_HALF_OPS I NAME##_rn(__GMR_H h) { return SAT(rintf(__GMR_TOF(h))); }  \
  GMRACE_HALF_OPS I NAME##_rz(__GMR_H h) { return SAT(truncf(__GMR_TOF(h))); } \
  GMRACE_HALF_OPS I NAME##_rd(__GMR_H h) { return SAT(floorf(__GMR_TOF(h))); } \
  GMRACE_HALF_OPS I NAME##_ru(__GMR_H h) { return SAT(ceilf(__GMR_TOF(h))); }
#define GMRACE_HALF_CAST_INT(v) (int)(v)
#define GMRACE_HALF_CAST_UINT(v) (unsigned int)(v)
GMRACE_HALF_TO_INT(__GMR_TO(int), int, GMRACE_HALF_CAST_INT)
GMRACE_HALF_TO_INT(__GMR_TO(uint), unsigned int, GMRACE_HALF_CAST_UINT)
GMRACE_HALF_TO_INT(__GMR_TO(ll), long long, __gmr_f2ll)
GMRACE_HALF_TO_INT(__GMR_TO(ull), unsigned long long, __gmr_f2ull)
GMRACE_HALF_TO_INT(__GMR_TO(short), short, __gmr_f2short)
GMRACE_HALF_TO_INT(__GMR_TO(ushort), unsigned short, __gmr_f2ushort)
#undef GMRACE_HALF_CAST_INT
#undef GMRACE_HALF_CAST_UINT
#undef GMRACE_HALF_TO_INT_
#undef GMRACE_HALF_TO_INT
GMRACE_HALF_OPS signed char __GMR_TO(char_rz)(__GMR_H h) {
  return __gmr_f2char(truncf(__GMR_TOF(h)));
}
GMRACE_HALF_OPS unsigned char __GMR_TO(uchar_rz)(__GMR_H h) {
  return __gmr_f2uchar(truncf(__GMR_TOF(h)));
}

/* ---- arithmetic ---- */
#define GMRACE_HALF_BINARY(NAME, OP)                                           \
  GMRACE_HALF_OPS __GMR_H NAME(__GMR_H a, __GMR_H b) {                         \
    return __GMR_OF(__GMR_TOF(a) OP __GMR_TOF(b));                             \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H NAME##_rn(__GMR_H a, __GMR_H b) { return NAME(a, b); } \
  GMRACE_HALF_OPS __GMR_H NAME##_sat(__GMR_H a, __GMR_H b) {                   \
    return __GMR_OF(__gmr_saturate(__GMR_TOF(a) OP __GMR_TOF(b)));             \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 NAME##2(__GMR_H2 a, __GMR_H2 b) {                   \
    return __GMR_H2(NAME(a.x, b.x), NAME(a.y, b.y));                           \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 NAME##2_rn(__GMR_H2 a, __GMR_H2 b) {                \
    return __GMR_H2(NAME(a.x, b.x), NAME(a.y, b.y));                           \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 NAME##2_sat(__GMR_H2 a, __GMR_H2 b) {               \
    return __GMR_H2(NAME##_sat(a.x, b.x), NAME##_sat(a.y, b.y));               \
  }
GMRACE_HALF_BINARY(__hadd, +)
GMRACE_HALF_BINARY(__hsub, -)
GMRACE_HALF_BINARY(__hmul, *)
#undef GMRACE_HALF_BINARY
GMRACE_HALF_OPS __GMR_H __hdiv(__GMR_H a, __GMR_H b) {
  return __GMR_OF(__GMR_TOF(a) / __GMR_TOF(b));
}
GMRACE_HALF_OPS __GMR_H2 __h2div(__GMR_H2 a, __GMR_H2 b) {
  return __GMR_H2(__hdiv(a.x, b.x), __hdiv(a.y, b.y));
}
GMRACE_HALF_OPS __GMR_H __hfma(__GMR_H a, __GMR_H b, __GMR_H c) {
  return __GMR_OF(__gmr_fma_odd(__GMR_TOF(a), __GMR_TOF(b), __GMR_TOF(c)));
}
GMRACE_HALF_OPS __GMR_H __hfma_sat(__GMR_H a, __GMR_H b, __GMR_H c) {
  return __GMR_OF(__gmr_saturate(__gmr_fma_odd(__GMR_TOF(a), __GMR_TOF(b), __GMR_TOF(c))));
}
/* max(fma, 0); a NaN stays a (canonical) NaN. */
GMRACE_HALF_OPS __GMR_H __hfma_relu(__GMR_H a, __GMR_H b, __GMR_H c) {
  __GMR_H r = __hfma(a, b, c);
  return __hisnan(r) ? __GMR_NAN : (r.__x & 0x8000u) ? __GMR_BITS(0u) : r;
}
GMRACE_HALF_OPS __GMR_H2 __hfma2(__GMR_H2 a, __GMR_H2 b, __GMR_H2 c) {
  return __GMR_H2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
GMRACE_HALF_OPS __GMR_H2 __hfma2_sat(__GMR_H2 a, __GMR_H2 b, __GMR_H2 c) {
  return __GMR_H2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
GMRACE_HALF_OPS __GMR_H2 __hfma2_relu(__GMR_H2 a, __GMR_H2 b, __GMR_H2 c) {
  return __GMR_H2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
/* Complex multiply-add: (a.x + i a.y) * (b.x + i b.y) + (c.x + i c.y). */
GMRACE_HALF_OPS __GMR_H2 __hcmadd(__GMR_H2 a, __GMR_H2 b, __GMR_H2 c) {
  __GMR_H re = __hfma(a.x, b.x, c.x);
  __GMR_H im = __hfma(a.x, b.y, c.y);
  return __GMR_H2(__hfma(__GMR_BITS(a.y.__x ^ 0x8000u), b.y, re), __hfma(a.y, b.x, im));
}
/* A NaN operand gives the canonical NaN, as nvcc's header computes them. */
GMRACE_HALF_OPS __GMR_H __hneg(__GMR_H a) {
  return __hisnan(a) ? __GMR_NAN : __GMR_BITS(a.__x ^ 0x8000u);
}
GMRACE_HALF_OPS __GMR_H2 __hneg2(__GMR_H2 a) { return __GMR_H2(__hneg(a.x), __hneg(a.y)); }
GMRACE_HALF_OPS __GMR_H __habs(__GMR_H a) {
  return __hisnan(a) ? __GMR_NAN : __GMR_BITS(a.__x & 0x7fffu);
}
GMRACE_HALF_OPS __GMR_H2 __habs2(__GMR_H2 a) { return __GMR_H2(__habs(a.x), __habs(a.y)); }

/* ---- comparisons: ordered ones are false with a NaN, unordered (..u) true ---- */
#define GMRACE_HALF_COMPARE(NAME, ORDERED)                                     \
  GMRACE_HALF_OPS bool NAME(__GMR_H a, __GMR_H b) {                            \
    float x = __GMR_TOF(a), y = __GMR_TOF(b);                                  \
    return ORDERED;                                                            \
  }                                                                            \
  GMRACE_HALF_OPS bool NAME##u(__GMR_H a, __GMR_H b) {                         \
    return __hisnan(a) || __hisnan(b) || NAME(a, b);                           \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 NAME##2(__GMR_H2 a, __GMR_H2 b) {                   \
    return __GMR_H2(__GMR_OF(NAME(a.x, b.x) ? 1.0f : 0.0f),                    \
                    __GMR_OF(NAME(a.y, b.y) ? 1.0f : 0.0f));                   \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 NAME##u2(__GMR_H2 a, __GMR_H2 b) {                  \
    return __GMR_H2(__GMR_OF(NAME##u(a.x, b.x) ? 1.0f : 0.0f),                 \
                    __GMR_OF(NAME##u(a.y, b.y) ? 1.0f : 0.0f));                \
  }                                                                            \
  GMRACE_HALF_OPS unsigned int NAME##2_mask(__GMR_H2 a, __GMR_H2 b) {          \
    return (NAME(a.x, b.x) ? 0xffffu : 0u) | (NAME(a.y, b.y) ? 0xffff0000u : 0u); \
  }                                                                            \
  GMRACE_HALF_OPS unsigned int NAME##u2_mask(__GMR_H2 a, __GMR_H2 b) {         \
    return (NAME##u(a.x, b.x) ? 0xffffu : 0u) |                                \
           (NAME##u(a.y, b.y) ? 0xffff0000u : 0u);                             \
  }
GMRACE_HALF_COMPARE(__heq, x == y)
GMRACE_HALF_COMPARE(__hne, x < y || x > y)
GMRACE_HALF_COMPARE(__hlt, x < y)
GMRACE_HALF_COMPARE(__hle, x <= y)
GMRACE_HALF_COMPARE(__hgt, x > y)
GMRACE_HALF_COMPARE(__hge, x >= y)
#undef GMRACE_HALF_COMPARE
/* Both halves compare: __hbeq2 ... __hbgeu2. */
#define GMRACE_HALF_BOTH(NAME, ONE)                                            \
  GMRACE_HALF_OPS bool NAME(__GMR_H2 a, __GMR_H2 b) {                          \
    return ONE(a.x, b.x) && ONE(a.y, b.y);                                     \
  }
GMRACE_HALF_BOTH(__hbeq2, __heq)
GMRACE_HALF_BOTH(__hbne2, __hne)
GMRACE_HALF_BOTH(__hblt2, __hlt)
GMRACE_HALF_BOTH(__hble2, __hle)
GMRACE_HALF_BOTH(__hbgt2, __hgt)
GMRACE_HALF_BOTH(__hbge2, __hge)
GMRACE_HALF_BOTH(__hbequ2, __hequ)
GMRACE_HALF_BOTH(__hbneu2, __hneu)
GMRACE_HALF_BOTH(__hbltu2, __hltu)
GMRACE_HALF_BOTH(__hbleu2, __hleu)
GMRACE_HALF_BOTH(__hbgtu2, __hgtu)
GMRACE_HALF_BOTH(__hbgeu2, __hgeu)
#undef GMRACE_HALF_BOTH

/* max/min as nvcc's: a NaN operand gives the other one (two give the
 * canonical NaN), +0 is above -0; the _nan forms give a NaN for any NaN. */
GMRACE_HALF_OPS __GMR_H __hmax(__GMR_H a, __GMR_H b) {
  if (__hisnan(a))
    return __hisnan(b) ? __GMR_NAN : b;
  if (__hisnan(b))
    return a;
  if (__heq(a, b)) /* +0 over -0 */
    return a.__x > b.__x ? b : a;
  return __hgt(b, a) ? b : a;
}
GMRACE_HALF_OPS __GMR_H __hmin(__GMR_H a, __GMR_H b) {
  if (__hisnan(a))
    return __hisnan(b) ? __GMR_NAN : b;
  if (__hisnan(b))
    return a;
  if (__heq(a, b)) /* -0 under +0 */
    return a.__x > b.__x ? a : b;
  return __hlt(b, a) ? b : a;
}
GMRACE_HALF_OPS __GMR_H __hmax_nan(__GMR_H a, __GMR_H b) {
  return __hisnan(a) || __hisnan(b) ? __GMR_NAN : __hmax(a, b);
}
GMRACE_HALF_OPS __GMR_H __hmin_nan(__GMR_H a, __GMR_H b) {
  return __hisnan(a) || __hisnan(b) ? __GMR_NAN : __hmin(a, b);
}
GMRACE_HALF_OPS __GMR_H2 __hmax2(__GMR_H2 a, __GMR_H2 b) {
  return __GMR_H2(__hmax(a.x, b.x), __hmax(a.y, b.y));
}
GMRACE_HALF_OPS __GMR_H2 __hmin2(__GMR_H2 a, __GMR_H2 b) {
  return __GMR_H2(__hmin(a.x, b.x), __hmin(a.y, b.y));
}
GMRACE_HALF_OPS __GMR_H2 __hmax2_nan(__GMR_H2 a, __GMR_H2 b) {
  return __GMR_H2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));
}
GMRACE_HALF_OPS __GMR_H2 __hmin2_nan(__GMR_H2 a, __GMR_H2 b) {
  return __GMR_H2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));
}

/* ---- the math library: the float function, rounded (device code only) ---- */
#define GMRACE_HALF_MATH(NAME, NAME2, EXPR)                                    \
  static __device__ __forceinline__ __GMR_H NAME(const __GMR_H a) {            \
    float x = __GMR_TOF(a);                                                    \
    return __GMR_OF(EXPR);                                                     \
  }                                                                            \
  static __device__ __forceinline__ __GMR_H2 NAME2(const __GMR_H2 a) {         \
    return __GMR_H2(NAME(a.x), NAME(a.y));                                     \
  }
GMRACE_HALF_MATH(hsqrt, h2sqrt, sqrtf(x))
GMRACE_HALF_MATH(hrsqrt, h2rsqrt, rsqrtf(x))
GMRACE_HALF_MATH(hrcp, h2rcp, 1.0f / x)
GMRACE_HALF_MATH(hexp, h2exp, expf(x))
GMRACE_HALF_MATH(hexp2, h2exp2, exp2f(x))
GMRACE_HALF_MATH(hexp10, h2exp10, powf(10.0f, x))
GMRACE_HALF_MATH(hlog, h2log, logf(x))
GMRACE_HALF_MATH(hlog2, h2log2, log2f(x))
GMRACE_HALF_MATH(hlog10, h2log10, log10f(x))
GMRACE_HALF_MATH(hsin, h2sin, sinf(x))
GMRACE_HALF_MATH(hcos, h2cos, cosf(x))
GMRACE_HALF_MATH(hfloor, h2floor, floorf(x))
GMRACE_HALF_MATH(hceil, h2ceil, ceilf(x))
GMRACE_HALF_MATH(htrunc, h2trunc, truncf(x))
GMRACE_HALF_MATH(hrint, h2rint, rintf(x))
#undef GMRACE_HALF_MATH

/* ---- pairs ---- */
GMRACE_HALF_OPS float __low2float(__GMR_H2 h) { return __GMR_TOF(h.x); }
GMRACE_HALF_OPS float __high2float(__GMR_H2 h) { return __GMR_TOF(h.y); }
GMRACE_HALF_OPS __GMR_H2 __lowhigh2highlow(__GMR_H2 h) { return __GMR_H2(h.y, h.x); }

/* ---- the C++ operators ---- */
#define GMRACE_HALF_OPERATOR(OP, FN, FN2)                                      \
  GMRACE_HALF_OPS __GMR_H operator OP(const __GMR_H &a, const __GMR_H &b) {    \
    return FN(a, b);                                                           \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H &operator OP##=(__GMR_H &a, const __GMR_H &b) {      \
    a = FN(a, b);                                                              \
    return a;                                                                  \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 operator OP(const __GMR_H2 &a, const __GMR_H2 &b) { \
    return FN2(a, b);                                                          \
  }                                                                            \
  GMRACE_HALF_OPS __GMR_H2 &operator OP##=(__GMR_H2 &a, const __GMR_H2 &b) {   \
    a = FN2(a, b);                                                             \
    return a;                                                                  \
  }
GMRACE_HALF_OPERATOR(+, __hadd, __hadd2)
GMRACE_HALF_OPERATOR(-, __hsub, __hsub2)
GMRACE_HALF_OPERATOR(*, __hmul, __hmul2)
GMRACE_HALF_OPERATOR(/, __hdiv, __h2div)
#undef GMRACE_HALF_OPERATOR
GMRACE_HALF_OPS __GMR_H operator+(const __GMR_H &a) { return a; }
GMRACE_HALF_OPS __GMR_H operator-(const __GMR_H &a) { return __hneg(a); }
GMRACE_HALF_OPS __GMR_H2 operator+(const __GMR_H2 &a) { return a; }
GMRACE_HALF_OPS __GMR_H2 operator-(const __GMR_H2 &a) { return __hneg2(a); }
GMRACE_HALF_OPS __GMR_H &operator++(__GMR_H &a) { return a = __hadd(a, __GMR_OF(1.0f)); }
GMRACE_HALF_OPS __GMR_H &operator--(__GMR_H &a) { return a = __hsub(a, __GMR_OF(1.0f)); }
GMRACE_HALF_OPS __GMR_H operator++(__GMR_H &a, int) {
  __GMR_H old = a;
  a = __hadd(a, __GMR_OF(1.0f));
  return old;
}
GMRACE_HALF_OPS __GMR_H operator--(__GMR_H &a, int) {
  __GMR_H old = a;
  a = __hsub(a, __GMR_OF(1.0f));
  return old;
}
GMRACE_HALF_OPS __GMR_H2 &operator++(__GMR_H2 &a) {
  return a = __hadd2(a, __GMR_H2(__GMR_OF(1.0f), __GMR_OF(1.0f)));
}
GMRACE_HALF_OPS __GMR_H2 &operator--(__GMR_H2 &a) {
  return a = __hsub2(a, __GMR_H2(__GMR_OF(1.0f), __GMR_OF(1.0f)));
}
GMRACE_HALF_OPS __GMR_H2 operator++(__GMR_H2 &a, int) {
  __GMR_H2 old = a;
  ++a;
  return old;
}
GMRACE_HALF_OPS __GMR_H2 operator--(__GMR_H2 &a, int) {
  __GMR_H2 old = a;
  --a;
  return old;
}
/* A pair compares true when both halves do; != is unordered, as nvcc's. */
#define GMRACE_HALF_RELATION(OP, FN, FN2)                                      \
  GMRACE_HALF_OPS bool operator OP(const __GMR_H &a, const __GMR_H &b) { return FN(a, b); } \
  GMRACE_HALF_OPS bool operator OP(const __GMR_H2 &a, const __GMR_H2 &b) { return FN2(a, b); }
GMRACE_HALF_RELATION(==, __heq, __hbeq2)
GMRACE_HALF_RELATION(!=, __hneu, __hbneu2)
GMRACE_HALF_RELATION(<, __hlt, __hblt2)
GMRACE_HALF_RELATION(<=, __hle, __hble2)
GMRACE_HALF_RELATION(>, __hgt, __hbgt2)
GMRACE_HALF_RELATION(>=, __hge, __hbge2)
#undef GMRACE_HALF_RELATION

/* ---- loads: plain reads (the cache hints do not change what is read) ---- */
static __device__ __forceinline__ __GMR_H __ldg(const __GMR_H *p) { return *p; }
static __device__ __forceinline__ __GMR_H2 __ldg(const __GMR_H2 *p) { return *p; }

/* ---- warp shuffles: the bits through the 32-bit shuffle, as nvcc's header ---- */
#define GMRACE_HALF_SHUFFLE(NAME, LANE)                                        \
  static __device__ __forceinline__ __GMR_H NAME(unsigned int mask, __GMR_H v, \
                                                 LANE lane, int width = 32) {  \
    return __GMR_BITS((unsigned short)NAME(mask, (unsigned int)v.__x, lane, width)); \
  }                                                                            \
  static __device__ __forceinline__ __GMR_H2 NAME(unsigned int mask, __GMR_H2 v, \
                                                  LANE lane, int width = 32) { \
    unsigned int bits = (unsigned int)v.x.__x | ((unsigned int)v.y.__x << 16); \
    bits = NAME(mask, bits, lane, width);                                      \
    return __GMR_H2(__GMR_BITS((unsigned short)(bits & 0xffffu)),              \
                    __GMR_BITS((unsigned short)(bits >> 16)));                 \
  }
GMRACE_HALF_SHUFFLE(__shfl_sync, int)
GMRACE_HALF_SHUFFLE(__shfl_up_sync, unsigned int)
GMRACE_HALF_SHUFFLE(__shfl_down_sync, unsigned int)
GMRACE_HALF_SHUFFLE(__shfl_xor_sync, int)
#undef GMRACE_HALF_SHUFFLE

/* ---- atomicAdd (sm_70 on for the scalar, sm_60 for the pair; no _block or
 * _system forms, as in nvcc's header): a compare-and-swap loop on the
 * aligned word that holds the value, adding in the type's own precision.
 * gmrace recognises atomicAdd by name: these bodies are only for PTX. ---- */
static __device__ __forceinline__ __GMR_H atomicAdd(__GMR_H *address, __GMR_H val) {
  unsigned int *word = (unsigned int *)((size_t)address & ~(size_t)3);
  unsigned int shift = ((unsigned int)(size_t)address & 2u) * 8u;
  unsigned int old = *(volatile unsigned int *)word, assumed;
  do {
    assumed = old;
    __GMR_H sum = __hadd(__GMR_BITS((unsigned short)(assumed >> shift)), val);
    old = atomicCAS(word, assumed,
                    (assumed & ~(0xffffu << shift)) | ((unsigned int)sum.__x << shift));
  } while (old != assumed);
  return __GMR_BITS((unsigned short)(assumed >> shift));
}
static __device__ __forceinline__ __GMR_H2 atomicAdd(__GMR_H2 *address, __GMR_H2 val) {
  unsigned int *word = (unsigned int *)address;
  unsigned int old = *(volatile unsigned int *)word, assumed;
  __GMR_H2 cur;
  do {
    assumed = old;
    cur = __GMR_H2(__GMR_BITS((unsigned short)(assumed & 0xffffu)),
                   __GMR_BITS((unsigned short)(assumed >> 16)));
    __GMR_H2 sum = __hadd2(cur, val);
    old = atomicCAS(word, assumed, (unsigned int)sum.x.__x | ((unsigned int)sum.y.__x << 16));
  } while (old != assumed);
  return cur;
}

#undef __GMR_NAN
#undef GMRACE_HALF_OPS
#undef __GMR_H
#undef __GMR_H2
#undef __GMR_TOF
#undef __GMR_OF
#undef __GMR_BITS
#undef __GMR_EXP_MASK
#undef __GMR_TO
