/*
 * gmrace stand-in CUDA headers: built-in vector types, dim3 and the
 * make_<type>__gmr_N() constructor functions.
 *
 * Internal part of gmrace_cuda.h.  Public names: <vector_types.h>,
 * <vector_functions.h>.
 *
 * Alignments follow the CUDA documentation: 2- and 4-component vectors are
 * aligned to their full size (capped at 16 bytes), 3-component vectors only
 * to their element type.
 */
#ifndef GMRACE_VECTOR_TYPES_H
#define GMRACE_VECTOR_TYPES_H

#include "gmrace_host_defines.h"

/* GMRACE_VECTOR_STRUCTS(__gmr_T, NAME, A1, A2, A4) defines NAME1..NAME4 holding
 * elements of type __gmr_T; A1/A2/A4 are the alignments of the 1/2/4-component
 * types. */
#define GMRACE_VECTOR_STRUCTS(__gmr_T, NAME, A1, A2, A4)                             \
  struct __align__(A1) NAME##1 { __gmr_T x; };                                       \
  struct __align__(A2) NAME##2 { __gmr_T x, y; };                                    \
  struct NAME##3 { __gmr_T x, y, z; };                                               \
  struct __align__(A4) NAME##4 { __gmr_T x, y, z, w; };

GMRACE_VECTOR_STRUCTS(signed char, char, 1, 2, 4)
GMRACE_VECTOR_STRUCTS(unsigned char, uchar, 1, 2, 4)
GMRACE_VECTOR_STRUCTS(short, short, 2, 4, 8)
GMRACE_VECTOR_STRUCTS(unsigned short, ushort, 2, 4, 8)
GMRACE_VECTOR_STRUCTS(int, int, 4, 8, 16)
GMRACE_VECTOR_STRUCTS(unsigned int, uint, 4, 8, 16)
GMRACE_VECTOR_STRUCTS(long, long, sizeof(long), 2 * sizeof(long), 16)
GMRACE_VECTOR_STRUCTS(unsigned long, ulong, sizeof(long), 2 * sizeof(long), 16)
GMRACE_VECTOR_STRUCTS(long long, longlong, 8, 16, 16)
GMRACE_VECTOR_STRUCTS(unsigned long long, ulonglong, 8, 16, 16)
GMRACE_VECTOR_STRUCTS(float, float, 4, 8, 16)
GMRACE_VECTOR_STRUCTS(double, double, 8, 16, 16)

#undef GMRACE_VECTOR_STRUCTS

/* dim3: launch-configuration type.  Unspecified components default to 1.
 * It converts to and from uint3, as in CUDA.  clang's
 * __clang_cuda_builtin_vars.h forward-declares `struct uint3; struct dim3;`,
 * so both must stay plain structs (not typedefs). */
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
};

/* ---- make_<type>__gmr_N(...) ------------------------------------------------ */
#define GMRACE_MAKE_FUNCTIONS(__gmr_T, NAME)                                         \
  static __inline__ __host__ __device__ NAME##1 make_##NAME##1(__gmr_T x) {          \
    NAME##1 r; r.x = x; return r;                                              \
  }                                                                            \
  static __inline__ __host__ __device__ NAME##2 make_##NAME##2(__gmr_T x, __gmr_T y) {     \
    NAME##2 r; r.x = x; r.y = y; return r;                                     \
  }                                                                            \
  static __inline__ __host__ __device__ NAME##3 make_##NAME##3(__gmr_T x, __gmr_T y,       \
                                                               __gmr_T z) {          \
    NAME##3 r; r.x = x; r.y = y; r.z = z; return r;                            \
  }                                                                            \
  static __inline__ __host__ __device__ NAME##4 make_##NAME##4(__gmr_T x, __gmr_T y, __gmr_T z,  \
                                                               __gmr_T w) {          \
    NAME##4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;                   \
  }

GMRACE_MAKE_FUNCTIONS(signed char, char)
GMRACE_MAKE_FUNCTIONS(unsigned char, uchar)
GMRACE_MAKE_FUNCTIONS(short, short)
GMRACE_MAKE_FUNCTIONS(unsigned short, ushort)
GMRACE_MAKE_FUNCTIONS(int, int)
GMRACE_MAKE_FUNCTIONS(unsigned int, uint)
GMRACE_MAKE_FUNCTIONS(long, long)
GMRACE_MAKE_FUNCTIONS(unsigned long, ulong)
GMRACE_MAKE_FUNCTIONS(long long, longlong)
GMRACE_MAKE_FUNCTIONS(unsigned long long, ulonglong)
GMRACE_MAKE_FUNCTIONS(float, float)
GMRACE_MAKE_FUNCTIONS(double, double)

#undef GMRACE_MAKE_FUNCTIONS

#endif /* GMRACE_VECTOR_TYPES_H */
