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

/* The overloads are function templates with an unused defaulted parameter
 * (see gmrace_vector_ops.h): kernels written for GPUVerify declare their own
 * `__device__ float max(float, float);`, which clang rejects next to a
 * __host__ __device__ NON-template of the same signature, and a user's
 * non-template also wins overload resolution against these. */
#define GMRACE_HD template <class = void> static __inline__ __host__ __device__

/* Host-side counterparts of clang's device-only min(int,int)/max(int,int);
 * execution-space overloading keeps the two apart. */
static __inline__ __host__ int min(int __gmr_a, int __gmr_b) {
  return __gmr_a < __gmr_b ? __gmr_a : __gmr_b;
}
static __inline__ __host__ int max(int __gmr_a, int __gmr_b) {
  return __gmr_a > __gmr_b ? __gmr_a : __gmr_b;
}

/* GMRACE_MINMAX(R, A, B): min/max(A, B) computed in type R. */
#define GMRACE_MINMAX(R, A, B)                                                 \
  GMRACE_HD R min(A __gmr_a, B __gmr_b) {                                      \
    return (R)__gmr_a < (R)__gmr_b ? (R)__gmr_a : (R)__gmr_b;                  \
  }                                                                            \
  GMRACE_HD R max(A __gmr_a, B __gmr_b) {                                      \
    return (R)__gmr_a > (R)__gmr_b ? (R)__gmr_a : (R)__gmr_b;                  \
  }

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
GMRACE_HD float min(float __gmr_a, float __gmr_b) {
  return __builtin_fminf(__gmr_a, __gmr_b);
}
GMRACE_HD float max(float __gmr_a, float __gmr_b) {
  return __builtin_fmaxf(__gmr_a, __gmr_b);
}
GMRACE_HD double min(double __gmr_a, double __gmr_b) {
  return __builtin_fmin(__gmr_a, __gmr_b);
}
GMRACE_HD double max(double __gmr_a, double __gmr_b) {
  return __builtin_fmax(__gmr_a, __gmr_b);
}
GMRACE_HD double min(float __gmr_a, double __gmr_b) {
  return __builtin_fmin(__gmr_a, __gmr_b);
}
GMRACE_HD double max(float __gmr_a, double __gmr_b) {
  return __builtin_fmax(__gmr_a, __gmr_b);
}
GMRACE_HD double min(double __gmr_a, float __gmr_b) {
  return __builtin_fmin(__gmr_a, __gmr_b);
}
GMRACE_HD double max(double __gmr_a, float __gmr_b) {
  return __builtin_fmax(__gmr_a, __gmr_b);
}

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
#define GMRACE_F1(NAME)                                                        \
  GMRACE_DEV float NAME(float __gmr_x) { return ::NAME##f(__gmr_x); }
#define GMRACE_F2(NAME)                                                        \
  GMRACE_DEV float NAME(float __gmr_x, float __gmr_y) {                        \
    return ::NAME##f(__gmr_x, __gmr_y);                                        \
  }

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
GMRACE_DEV float fma(float __gmr_x, float __gmr_y, float __gmr_z) {
  return ::fmaf(__gmr_x, __gmr_y, __gmr_z);
}
GMRACE_DEV int ilogb(float __gmr_x) { return ::ilogbf(__gmr_x); }
GMRACE_DEV long lrint(float __gmr_x) { return ::lrintf(__gmr_x); }
GMRACE_DEV long long llrint(float __gmr_x) { return ::llrintf(__gmr_x); }
GMRACE_DEV long lround(float __gmr_x) { return ::lroundf(__gmr_x); }
GMRACE_DEV long long llround(float __gmr_x) { return ::llroundf(__gmr_x); }
GMRACE_DEV float remquo(float __gmr_x, float __gmr_y, int *__gmr_q) {
  return ::remquof(__gmr_x, __gmr_y, __gmr_q);
}
GMRACE_DEV float scalbn(float __gmr_x, int __gmr_n) {
  return ::scalbnf(__gmr_x, __gmr_n);
}
GMRACE_DEV float scalbln(float __gmr_x, long __gmr_n) {
  return ::scalblnf(__gmr_x, __gmr_n);
}
GMRACE_DEV double nan(const char *__gmr_tag) {
  return __nv_nan((const signed char *)__gmr_tag);
}
GMRACE_DEV float nanf(const char *__gmr_tag) {
  return __nv_nanf((const signed char *)__gmr_tag);
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
GMRACE_DEV void sincospi(float __gmr_x, float *__gmr_s, float *__gmr_c) {
  ::sincospif(__gmr_x, __gmr_s, __gmr_c);
}

#undef GMRACE_F1
#undef GMRACE_F2
#undef GMRACE_DEV

#endif /* GMRACE_MATH_H */
