/*
 * gmrace stand-in CUDA headers: the min/max overload set of CUDA's
 * math_functions.hpp.
 *
 * Internal part of gmrace_cuda.h.  Public name: <math_functions.h>.
 *
 * clang's __clang_cuda_math.h already gives device-only min(int,int),
 * max(int,int), umin/umax, llmin/llmax, ullmin/ullmax and all the float and
 * double functions (sqrtf, fminf, pow, ...).  CUDA additionally makes min/max
 * usable from host code and overloads them for mixed signedness and for
 * floating point; those overloads are added here as __host__ __device__.
 */
#ifndef GMRACE_MATH_H
#define GMRACE_MATH_H

#include "gmrace_device_functions.h"

#define GMRACE_HD static __inline__ __host__ __device__

/* Host-side counterparts of clang's device-only min(int,int)/max(int,int);
 * execution-space overloading keeps the two apart. */
static __inline__ __host__ int min(int a, int b) { return a < b ? a : b; }
static __inline__ __host__ int max(int a, int b) { return a > b ? a : b; }

/* GMRACE_MINMAX(R, A, B): min/max(A, B) computed in type R. */
#define GMRACE_MINMAX(R, A, B)                                                 \
  GMRACE_HD R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }              \
  GMRACE_HD R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }

GMRACE_MINMAX(unsigned int, unsigned int, unsigned int)
GMRACE_MINMAX(unsigned int, int, unsigned int)
GMRACE_MINMAX(unsigned int, unsigned int, int)
GMRACE_MINMAX(long, long, long)
GMRACE_MINMAX(unsigned long, unsigned long, unsigned long)
GMRACE_MINMAX(unsigned long, long, unsigned long)
GMRACE_MINMAX(unsigned long, unsigned long, long)
GMRACE_MINMAX(long long, long long, long long)
GMRACE_MINMAX(unsigned long long, unsigned long long, unsigned long long)
GMRACE_MINMAX(unsigned long long, long long, unsigned long long)
GMRACE_MINMAX(unsigned long long, unsigned long long, long long)

#undef GMRACE_MINMAX

/* Floating point: fminf/fmaxf/fmin/fmax semantics (NaN-ignoring). */
GMRACE_HD float min(float a, float b) { return __builtin_fminf(a, b); }
GMRACE_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
GMRACE_HD double min(double a, double b) { return __builtin_fmin(a, b); }
GMRACE_HD double max(double a, double b) { return __builtin_fmax(a, b); }
GMRACE_HD double min(float a, double b) { return __builtin_fmin(a, b); }
GMRACE_HD double max(float a, double b) { return __builtin_fmax(a, b); }
GMRACE_HD double min(double a, float b) { return __builtin_fmin(a, b); }
GMRACE_HD double max(double a, float b) { return __builtin_fmax(a, b); }

#undef GMRACE_HD

/* ---- float overloads of the C++ <cmath> functions -----------------------
 * __clang_cuda_math_forward_declares.h declares device overloads such as
 * `float erf(float)` or `double nan(const char *)` that neither
 * __clang_cuda_math.h nor __clang_cuda_cmath.h defines: in a real
 * installation their bodies come from the toolkit's math_functions.hpp.
 * Without these definitions a call compiles but leaves an undefined
 * internal-linkage function (".extern .func _ZL3erff") in the PTX.  The
 * declarations are `static __inline__ __device__`, so the definitions must
 * be too. */
#define GMRACE_DEV static __inline__ __device__ __attribute__((always_inline))
#define GMRACE_F1(NAME) GMRACE_DEV float NAME(float x) { return ::NAME##f(x); }
#define GMRACE_F2(NAME)                                                        \
  GMRACE_DEV float NAME(float x, float y) { return ::NAME##f(x, y); }

GMRACE_F1(acosh)
GMRACE_F1(asinh)
GMRACE_F1(atanh)
GMRACE_F1(cbrt)
GMRACE_F1(erf)
GMRACE_F1(erfc)
GMRACE_F1(exp2)
GMRACE_F1(expm1)
GMRACE_F1(lgamma)
GMRACE_F1(log1p)
GMRACE_F1(log2)
GMRACE_F1(logb)
GMRACE_F1(nearbyint)
GMRACE_F1(rint)
GMRACE_F1(round)
GMRACE_F1(tgamma)
GMRACE_F1(trunc)
GMRACE_F2(copysign)
GMRACE_F2(fdim)
GMRACE_F2(fmax)
GMRACE_F2(fmin)
GMRACE_F2(hypot)
GMRACE_F2(nextafter)
GMRACE_F2(remainder)
GMRACE_DEV float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
GMRACE_DEV int ilogb(float x) { return ::ilogbf(x); }
GMRACE_DEV long lrint(float x) { return ::lrintf(x); }
GMRACE_DEV long long llrint(float x) { return ::llrintf(x); }
GMRACE_DEV long lround(float x) { return ::lroundf(x); }
GMRACE_DEV long long llround(float x) { return ::llroundf(x); }
GMRACE_DEV float remquo(float x, float y, int *q) { return ::remquof(x, y, q); }
GMRACE_DEV float scalbn(float x, int n) { return ::scalbnf(x, n); }
GMRACE_DEV float scalbln(float x, long n) { return ::scalblnf(x, n); }
GMRACE_DEV double nan(const char *tag) {
  return __nv_nan((const signed char *)tag);
}
GMRACE_DEV float nanf(const char *tag) {
  return __nv_nanf((const signed char *)tag);
}

/* CUDA-specific functions whose float overloads also come from the toolkit
 * (the double versions are in __clang_cuda_math.h). */
GMRACE_F1(rsqrt)
GMRACE_F1(rcbrt)
GMRACE_F1(sinpi)
GMRACE_F1(cospi)
GMRACE_F1(erfinv)
GMRACE_F1(erfcinv)
GMRACE_F1(normcdf)
GMRACE_F1(normcdfinv)
GMRACE_F1(erfcx)
GMRACE_DEV void sincospi(float x, float *s, float *c) { ::sincospif(x, s, c); }

#undef GMRACE_F1
#undef GMRACE_F2
#undef GMRACE_DEV

#endif /* GMRACE_MATH_H */
