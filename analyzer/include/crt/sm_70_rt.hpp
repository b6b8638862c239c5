/*
 * gmrace stand-in for the CUDA toolkit's crt/sm_70_rt.hpp.
 *
 * clang's __clang_cuda_intrinsics.h defines the __match{32,64}_{any,all}_sync
 * helpers and then does #include "crt/sm_70_rt.hpp", expecting the toolkit to
 * provide the user-facing __match_any_sync / __match_all_sync overloads on top
 * of them.  With no toolkit installed this file provides them instead.
 */
#ifndef GMRACE_CRT_SM_70_RT_HPP
#define GMRACE_CRT_SM_70_RT_HPP

#define GMRACE_MATCH_32(__gmr_T)                                                     \
  static __inline__ __device__ unsigned int __match_any_sync(unsigned mask,    \
                                                             __gmr_T value) {        \
    return __match32_any_sync(mask, (unsigned int)value);                      \
  }                                                                            \
  static __inline__ __device__ unsigned int __match_all_sync(                  \
      unsigned mask, __gmr_T value, int *pred) {                                     \
    return __match32_all_sync(mask, (unsigned int)value, pred);                \
  }
#define GMRACE_MATCH_64(__gmr_T)                                                     \
  static __inline__ __device__ unsigned int __match_any_sync(unsigned mask,    \
                                                             __gmr_T value) {        \
    return (unsigned int)__match64_any_sync(mask,                              \
                                            (unsigned long long)value);        \
  }                                                                            \
  static __inline__ __device__ unsigned int __match_all_sync(                  \
      unsigned mask, __gmr_T value, int *pred) {                                     \
    return (unsigned int)__match64_all_sync(mask, (unsigned long long)value,   \
                                            pred);                             \
  }

GMRACE_MATCH_32(unsigned int)
GMRACE_MATCH_32(int)
GMRACE_MATCH_64(unsigned long)
GMRACE_MATCH_64(long)
GMRACE_MATCH_64(unsigned long long)
GMRACE_MATCH_64(long long)

/* Floating-point values are matched by bit pattern, as in CUDA. */
static __inline__ __device__ unsigned int __match_any_sync(unsigned mask,
                                                           float value) {
  return __match32_any_sync(mask, __builtin_bit_cast(unsigned int, value));
}
static __inline__ __device__ unsigned int
__match_all_sync(unsigned mask, float value, int *pred) {
  return __match32_all_sync(mask, __builtin_bit_cast(unsigned int, value),
                            pred);
}
static __inline__ __device__ unsigned int __match_any_sync(unsigned mask,
                                                           double value) {
  return (unsigned int)__match64_any_sync(
      mask, __builtin_bit_cast(unsigned long long, value));
}
static __inline__ __device__ unsigned int
__match_all_sync(unsigned mask, double value, int *pred) {
  return (unsigned int)__match64_all_sync(
      mask, __builtin_bit_cast(unsigned long long, value), pred);
}

#undef GMRACE_MATCH_32
#undef GMRACE_MATCH_64

#endif /* GMRACE_CRT_SM_70_RT_HPP */
