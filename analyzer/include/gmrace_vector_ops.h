/*
 * gmrace stand-in CUDA headers: vector arithmetic and the helper functions
 * of the CUDA samples' helper_math.h (formerly cutil_math.h).
 *
 * Internal part of gmrace_cuda.h.  Public name: none; the real toolkit has
 * no vector operators at all.  GPUVerify's CUDA environment, which many
 * verification benchmarks were written against, did supply them (its vector
 * types are clang ext_vector_types), so kernels use `a + b` on float3,
 * `make_float4(0.0f)`, dot(), normalize(), lerp(), clamp() ... without
 * including anything.
 *
 * Stepping aside for the user's own helper_math.h
 * ------------------------------------------------
 * Real code usually includes its own helper_math.h, which defines these very
 * functions as non-template `inline __host__ __device__` functions.  Every
 * function here is therefore a function TEMPLATE:
 *
 *  - the named functions have the exact helper_math signature and one unused
 *    defaulted template parameter:
 *        template <class = void> __host__ __device__ float4 make_float4(float);
 *    the parameter types are concrete, so implicit conversions work exactly
 *    as with helper_math (`make_float4(0)`, `clamp(x, 0, 1.0f)`);
 *  - the operators are one template per operator, form and component count,
 *    constrained to the vector types (SFINAE on __gmr_vecN<_Tp>), with the
 *    scalar operand not deduced:
 *        template <class _Tp> __host__ __device__
 *        typename __gmr_vec3<_Tp>::__vec
 *        operator*(_Tp, typename __gmr_vec3<_Tp>::__elem);
 *    (~60 templates instead of ~750 concrete ones: the prelude is parsed for
 *    every file, and the concrete set cost about 35 ms each time).
 *
 * A non-template function with the same parameter types is a different
 * entity (no redefinition error), and for a call where both are equally
 * good, C++ [over.match.best] prefers the non-template: the user's version
 * wins whenever it is viable, and ours fill in whatever the user's header
 * lacks.  The same holds against a user's __device__-only declaration (clang
 * only forbids a __device__ and a __host__ __device__ NON-template with the
 * same signature).
 *
 * Coverage
 * --------
 *  - +, -, *, / (vector-vector, vector-scalar, scalar-vector), the compound
 *    assignments +=, -=, *=, /= (vector and scalar right-hand side) and unary
 *    minus for the 2-, 3- and 4-component vectors of every element type
 *    (helper_math has float, int and uint; GPUVerify had all of them);
 *  - helper_math's make_<type>N overloads (from a scalar, from a shorter or
 *    longer vector, vector + last component, int/uint/float conversions);
 *  - fminf/fmaxf, min/max, lerp, clamp, dot, length, normalize, floorf,
 *    fracf, fmodf, fabs, abs, reflect, cross, smoothstep as in helper_math,
 *    for float2/3/4 (and int/uint vectors where helper_math has them);
 *  - saturate(float) of CUDA's math API.
 *
 * Bodies are plain component arithmetic so the analyser sees through them.
 * Every name used inside is reserved (__gmr_*): kernels define macros such
 * as -DN=128 -DT=4 -Da=... before these headers are read.
 */
#ifndef GMRACE_VECTOR_OPS_H
#define GMRACE_VECTOR_OPS_H

#include "gmrace_vector_types.h"
#include "gmrace_device_functions.h"
#include "gmrace_math.h"

#define __GMR_VFN template <class = void> __host__ __device__ __inline__

/* ======================================================================== */
/* Arithmetic operators                                                     */
/* ======================================================================== */

/* One operator template per operator, form and component count, for all
 * element types at once: __gmr_vecN<_Tp> has members only when _Tp is an
 * N-component vector type, so deduction fails (SFINAE) for anything else
 * (std::string, iterators, ...).  `v * 2` converts 2 to the element type as
 * helper_math's `float3 operator*(float3, float)` does: the scalar parameter
 * is not deduced.  A user's non-template operator with the same parameter
 * types still wins (see above). */
template <class _Tp> struct __gmr_vec2 {};
template <class _Tp> struct __gmr_vec3 {};
template <class _Tp> struct __gmr_vec4 {};
#define __GMR_VEC_TRAITS(NAME, S)                                              \
  template <> struct __gmr_vec2<NAME##2> {                                     \
    typedef NAME##2 __vec;                                                     \
    typedef S __elem;                                                          \
  };                                                                           \
  template <> struct __gmr_vec3<NAME##3> {                                     \
    typedef NAME##3 __vec;                                                     \
    typedef S __elem;                                                          \
  };                                                                           \
  template <> struct __gmr_vec4<NAME##4> {                                     \
    typedef NAME##4 __vec;                                                     \
    typedef S __elem;                                                          \
  };
__GMR_VEC_TRAITS(float, float)
__GMR_VEC_TRAITS(int, int)
__GMR_VEC_TRAITS(uint, unsigned int)
__GMR_VEC_TRAITS(double, double)
__GMR_VEC_TRAITS(char, signed char)
__GMR_VEC_TRAITS(uchar, unsigned char)
__GMR_VEC_TRAITS(short, short)
__GMR_VEC_TRAITS(ushort, unsigned short)
__GMR_VEC_TRAITS(long, long)
__GMR_VEC_TRAITS(ulong, unsigned long)
__GMR_VEC_TRAITS(longlong, long long)
__GMR_VEC_TRAITS(ulonglong, unsigned long long)
#undef __GMR_VEC_TRAITS

#define __GMR_OPFN template <class _Tp> __host__ __device__ __inline__
#define __GMR_V(N) typename __gmr_vec##N<_Tp>::__vec
#define __GMR_E(N) typename __gmr_vec##N<_Tp>::__elem

/* __GMR_BIN<N>(OP, OPEQ): V OP V, V OP S, S OP V, V OPEQ V, V OPEQ S for
 * N-component vectors.  Results are built member by member (no braces: the
 * element arithmetic of char vectors yields int). */
#define __GMR_BIN2(OP, OPEQ)                                                   \
  __GMR_OPFN __GMR_V(2) operator OP(_Tp __gmr_a, _Tp __gmr_b) {                \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_b.x;                                        \
    __gmr_r.y = __gmr_a.y OP __gmr_b.y;                                        \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(2) operator OP(_Tp __gmr_a, __GMR_E(2) __gmr_s) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_s;                                          \
    __gmr_r.y = __gmr_a.y OP __gmr_s;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(2) operator OP(__GMR_E(2) __gmr_s, _Tp __gmr_a) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_s OP __gmr_a.x;                                          \
    __gmr_r.y = __gmr_s OP __gmr_a.y;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(2) &operator OPEQ(_Tp &__gmr_a, _Tp __gmr_b) {            \
    __gmr_a.x OPEQ __gmr_b.x;                                                  \
    __gmr_a.y OPEQ __gmr_b.y;                                                  \
    return __gmr_a;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(2) &operator OPEQ(_Tp &__gmr_a, __GMR_E(2) __gmr_s) {     \
    __gmr_a.x OPEQ __gmr_s;                                                    \
    __gmr_a.y OPEQ __gmr_s;                                                    \
    return __gmr_a;                                                            \
  }
#define __GMR_BIN3(OP, OPEQ)                                                   \
  __GMR_OPFN __GMR_V(3) operator OP(_Tp __gmr_a, _Tp __gmr_b) {                \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_b.x;                                        \
    __gmr_r.y = __gmr_a.y OP __gmr_b.y;                                        \
    __gmr_r.z = __gmr_a.z OP __gmr_b.z;                                        \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(3) operator OP(_Tp __gmr_a, __GMR_E(3) __gmr_s) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_s;                                          \
    __gmr_r.y = __gmr_a.y OP __gmr_s;                                          \
    __gmr_r.z = __gmr_a.z OP __gmr_s;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(3) operator OP(__GMR_E(3) __gmr_s, _Tp __gmr_a) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_s OP __gmr_a.x;                                          \
    __gmr_r.y = __gmr_s OP __gmr_a.y;                                          \
    __gmr_r.z = __gmr_s OP __gmr_a.z;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(3) &operator OPEQ(_Tp &__gmr_a, _Tp __gmr_b) {            \
    __gmr_a.x OPEQ __gmr_b.x;                                                  \
    __gmr_a.y OPEQ __gmr_b.y;                                                  \
    __gmr_a.z OPEQ __gmr_b.z;                                                  \
    return __gmr_a;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(3) &operator OPEQ(_Tp &__gmr_a, __GMR_E(3) __gmr_s) {     \
    __gmr_a.x OPEQ __gmr_s;                                                    \
    __gmr_a.y OPEQ __gmr_s;                                                    \
    __gmr_a.z OPEQ __gmr_s;                                                    \
    return __gmr_a;                                                            \
  }
#define __GMR_BIN4(OP, OPEQ)                                                   \
  __GMR_OPFN __GMR_V(4) operator OP(_Tp __gmr_a, _Tp __gmr_b) {                \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_b.x;                                        \
    __gmr_r.y = __gmr_a.y OP __gmr_b.y;                                        \
    __gmr_r.z = __gmr_a.z OP __gmr_b.z;                                        \
    __gmr_r.w = __gmr_a.w OP __gmr_b.w;                                        \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(4) operator OP(_Tp __gmr_a, __GMR_E(4) __gmr_s) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_a.x OP __gmr_s;                                          \
    __gmr_r.y = __gmr_a.y OP __gmr_s;                                          \
    __gmr_r.z = __gmr_a.z OP __gmr_s;                                          \
    __gmr_r.w = __gmr_a.w OP __gmr_s;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(4) operator OP(__GMR_E(4) __gmr_s, _Tp __gmr_a) {         \
    _Tp __gmr_r;                                                               \
    __gmr_r.x = __gmr_s OP __gmr_a.x;                                          \
    __gmr_r.y = __gmr_s OP __gmr_a.y;                                          \
    __gmr_r.z = __gmr_s OP __gmr_a.z;                                          \
    __gmr_r.w = __gmr_s OP __gmr_a.w;                                          \
    return __gmr_r;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(4) &operator OPEQ(_Tp &__gmr_a, _Tp __gmr_b) {            \
    __gmr_a.x OPEQ __gmr_b.x;                                                  \
    __gmr_a.y OPEQ __gmr_b.y;                                                  \
    __gmr_a.z OPEQ __gmr_b.z;                                                  \
    __gmr_a.w OPEQ __gmr_b.w;                                                  \
    return __gmr_a;                                                            \
  }                                                                            \
  __GMR_OPFN __GMR_V(4) &operator OPEQ(_Tp &__gmr_a, __GMR_E(4) __gmr_s) {     \
    __gmr_a.x OPEQ __gmr_s;                                                    \
    __gmr_a.y OPEQ __gmr_s;                                                    \
    __gmr_a.z OPEQ __gmr_s;                                                    \
    __gmr_a.w OPEQ __gmr_s;                                                    \
    return __gmr_a;                                                            \
  }
#define __GMR_ARITH(N)                                                         \
  __GMR_BIN##N(+, +=)                                                          \
  __GMR_BIN##N(-, -=)                                                          \
  __GMR_BIN##N(*, *=)                                                          \
  __GMR_BIN##N(/, /=)
__GMR_ARITH(2)
__GMR_ARITH(3)
__GMR_ARITH(4)

/* Unary minus. */
__GMR_OPFN __GMR_V(2) operator-(_Tp __gmr_a) {
  _Tp __gmr_r;
  __gmr_r.x = -__gmr_a.x;
  __gmr_r.y = -__gmr_a.y;
  return __gmr_r;
}
__GMR_OPFN __GMR_V(3) operator-(_Tp __gmr_a) {
  _Tp __gmr_r;
  __gmr_r.x = -__gmr_a.x;
  __gmr_r.y = -__gmr_a.y;
  __gmr_r.z = -__gmr_a.z;
  return __gmr_r;
}
__GMR_OPFN __GMR_V(4) operator-(_Tp __gmr_a) {
  _Tp __gmr_r;
  __gmr_r.x = -__gmr_a.x;
  __gmr_r.y = -__gmr_a.y;
  __gmr_r.z = -__gmr_a.z;
  __gmr_r.w = -__gmr_a.w;
  return __gmr_r;
}

#undef __GMR_ARITH
#undef __GMR_BIN2
#undef __GMR_BIN3
#undef __GMR_BIN4
#undef __GMR_E
#undef __GMR_V
#undef __GMR_OPFN

/* ======================================================================== */
/* make_<type>N overloads of helper_math.h                                  */
/* ======================================================================== */

/* __GMR_MAKE(NAME, S): from a scalar, from the next longer vector, from the
 * next shorter vector plus the last component (3 and 4), from a shorter
 * vector padded with 0 (make_NAME3(NAME2)), and from a 4-component vector
 * (make_NAME3(NAME4), make_NAME2(NAME4)). */
#define __GMR_MAKE(NAME, S)                                                    \
  __GMR_VFN NAME##2 make_##NAME##2(S __gmr_s) {                                \
    return make_##NAME##2(__gmr_s, __gmr_s);                                   \
  }                                                                            \
  __GMR_VFN NAME##3 make_##NAME##3(S __gmr_s) {                                \
    return make_##NAME##3(__gmr_s, __gmr_s, __gmr_s);                          \
  }                                                                            \
  __GMR_VFN NAME##4 make_##NAME##4(S __gmr_s) {                                \
    return make_##NAME##4(__gmr_s, __gmr_s, __gmr_s, __gmr_s);                 \
  }                                                                            \
  __GMR_VFN NAME##2 make_##NAME##2(NAME##3 __gmr_a) {                          \
    return make_##NAME##2(__gmr_a.x, __gmr_a.y);                               \
  }                                                                            \
  __GMR_VFN NAME##2 make_##NAME##2(NAME##4 __gmr_a) {                          \
    return make_##NAME##2(__gmr_a.x, __gmr_a.y);                               \
  }                                                                            \
  __GMR_VFN NAME##3 make_##NAME##3(NAME##2 __gmr_a) {                          \
    return make_##NAME##3(__gmr_a.x, __gmr_a.y, (S)0);                         \
  }                                                                            \
  __GMR_VFN NAME##3 make_##NAME##3(NAME##2 __gmr_a, S __gmr_s) {               \
    return make_##NAME##3(__gmr_a.x, __gmr_a.y, __gmr_s);                      \
  }                                                                            \
  __GMR_VFN NAME##3 make_##NAME##3(NAME##4 __gmr_a) {                          \
    return make_##NAME##3(__gmr_a.x, __gmr_a.y, __gmr_a.z);                    \
  }                                                                            \
  __GMR_VFN NAME##4 make_##NAME##4(NAME##3 __gmr_a) {                          \
    return make_##NAME##4(__gmr_a.x, __gmr_a.y, __gmr_a.z, (S)0);              \
  }                                                                            \
  __GMR_VFN NAME##4 make_##NAME##4(NAME##3 __gmr_a, S __gmr_w) {               \
    return make_##NAME##4(__gmr_a.x, __gmr_a.y, __gmr_a.z, __gmr_w);           \
  }

__GMR_MAKE(float, float)
__GMR_MAKE(int, int)
__GMR_MAKE(uint, unsigned int)
__GMR_MAKE(double, double)
#undef __GMR_MAKE

/* Conversions between element types (helper_math: float<->int, uint->float,
 * int<->uint), e.g. make_float3(int3), make_int4(float4). */
#define __GMR_CONVERT(TO, FROM, S)                                             \
  __GMR_VFN TO##2 make_##TO##2(FROM##2 __gmr_a) {                              \
    return make_##TO##2((S)__gmr_a.x, (S)__gmr_a.y);                           \
  }                                                                            \
  __GMR_VFN TO##3 make_##TO##3(FROM##3 __gmr_a) {                              \
    return make_##TO##3((S)__gmr_a.x, (S)__gmr_a.y, (S)__gmr_a.z);             \
  }                                                                            \
  __GMR_VFN TO##4 make_##TO##4(FROM##4 __gmr_a) {                              \
    return make_##TO##4((S)__gmr_a.x, (S)__gmr_a.y, (S)__gmr_a.z,              \
                        (S)__gmr_a.w);                                         \
  }
__GMR_CONVERT(float, int, float)
__GMR_CONVERT(float, uint, float)
__GMR_CONVERT(int, float, int)
__GMR_CONVERT(int, uint, int)
__GMR_CONVERT(uint, int, unsigned int)
__GMR_CONVERT(uint, float, unsigned int)
#undef __GMR_CONVERT

/* ======================================================================== */
/* Scalar helpers                                                           */
/* ======================================================================== */

/* CUDA math API: clamp to [0, 1]; NaN gives 0. */
__GMR_VFN float saturate(float __gmr_x) {
  return fminf(fmaxf(__gmr_x, 0.0f), 1.0f);
}
__GMR_VFN float lerp(float __gmr_a, float __gmr_b, float __gmr_t) {
  return __gmr_a + __gmr_t * (__gmr_b - __gmr_a);
}
__GMR_VFN float clamp(float __gmr_f, float __gmr_a, float __gmr_b) {
  return fmaxf(__gmr_a, fminf(__gmr_f, __gmr_b));
}
__GMR_VFN int clamp(int __gmr_f, int __gmr_a, int __gmr_b) {
  return __gmr_f < __gmr_a ? __gmr_a : (__gmr_f > __gmr_b ? __gmr_b : __gmr_f);
}
__GMR_VFN unsigned int clamp(unsigned int __gmr_f, unsigned int __gmr_a,
                             unsigned int __gmr_b) {
  return __gmr_f < __gmr_a ? __gmr_a : (__gmr_f > __gmr_b ? __gmr_b : __gmr_f);
}
__GMR_VFN float fracf(float __gmr_v) { return __gmr_v - floorf(__gmr_v); }
__GMR_VFN float smoothstep(float __gmr_a, float __gmr_b, float __gmr_x) {
  float __gmr_y = clamp((__gmr_x - __gmr_a) / (__gmr_b - __gmr_a), 0.0f, 1.0f);
  return __gmr_y * __gmr_y * (3.0f - (2.0f * __gmr_y));
}

/* ======================================================================== */
/* Vector helpers                                                           */
/* ======================================================================== */

/* Component-wise function FN2(a, b) / FN1(a) into vector type V. */
#define __GMR_MAP2(V, NAME, FN)                                                \
  __GMR_VFN V##2 NAME(V##2 __gmr_a, V##2 __gmr_b) {                            \
    return make_##V##2(FN(__gmr_a.x, __gmr_b.x), FN(__gmr_a.y, __gmr_b.y));    \
  }                                                                            \
  __GMR_VFN V##3 NAME(V##3 __gmr_a, V##3 __gmr_b) {                            \
    return make_##V##3(FN(__gmr_a.x, __gmr_b.x), FN(__gmr_a.y, __gmr_b.y),     \
                       FN(__gmr_a.z, __gmr_b.z));                              \
  }                                                                            \
  __GMR_VFN V##4 NAME(V##4 __gmr_a, V##4 __gmr_b) {                            \
    return make_##V##4(FN(__gmr_a.x, __gmr_b.x), FN(__gmr_a.y, __gmr_b.y),     \
                       FN(__gmr_a.z, __gmr_b.z), FN(__gmr_a.w, __gmr_b.w));    \
  }
#define __GMR_MAP1(V, NAME, FN)                                                \
  __GMR_VFN V##2 NAME(V##2 __gmr_a) {                                          \
    return make_##V##2(FN(__gmr_a.x), FN(__gmr_a.y));                          \
  }                                                                            \
  __GMR_VFN V##3 NAME(V##3 __gmr_a) {                                          \
    return make_##V##3(FN(__gmr_a.x), FN(__gmr_a.y), FN(__gmr_a.z));           \
  }                                                                            \
  __GMR_VFN V##4 NAME(V##4 __gmr_a) {                                          \
    return make_##V##4(FN(__gmr_a.x), FN(__gmr_a.y), FN(__gmr_a.z),            \
                       FN(__gmr_a.w));                                         \
  }

__GMR_MAP2(float, fminf, fminf)
__GMR_MAP2(float, fmaxf, fmaxf)
__GMR_MAP2(float, fmodf, fmodf)
__GMR_MAP2(int, min, min)
__GMR_MAP2(int, max, max)
__GMR_MAP2(uint, min, min)
__GMR_MAP2(uint, max, max)
__GMR_MAP1(float, floorf, floorf)
__GMR_MAP1(float, fracf, fracf)
__GMR_MAP1(float, fabs, fabsf)
__GMR_MAP1(int, abs, abs)
#undef __GMR_MAP1
#undef __GMR_MAP2

/* __GMR_VEC_FUNCS(V, S): dot, clamp (scalar and vector bounds) for V2..V4. */
#define __GMR_VEC_FUNCS(V, S)                                                  \
  __GMR_VFN S dot(V##2 __gmr_a, V##2 __gmr_b) {                                \
    return __gmr_a.x * __gmr_b.x + __gmr_a.y * __gmr_b.y;                      \
  }                                                                            \
  __GMR_VFN S dot(V##3 __gmr_a, V##3 __gmr_b) {                                \
    return __gmr_a.x * __gmr_b.x + __gmr_a.y * __gmr_b.y +                     \
           __gmr_a.z * __gmr_b.z;                                              \
  }                                                                            \
  __GMR_VFN S dot(V##4 __gmr_a, V##4 __gmr_b) {                                \
    return __gmr_a.x * __gmr_b.x + __gmr_a.y * __gmr_b.y +                     \
           __gmr_a.z * __gmr_b.z + __gmr_a.w * __gmr_b.w;                      \
  }                                                                            \
  __GMR_VFN V##2 clamp(V##2 __gmr_v, S __gmr_a, S __gmr_b) {                   \
    return make_##V##2(clamp(__gmr_v.x, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.y, __gmr_a, __gmr_b));                    \
  }                                                                            \
  __GMR_VFN V##3 clamp(V##3 __gmr_v, S __gmr_a, S __gmr_b) {                   \
    return make_##V##3(clamp(__gmr_v.x, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.y, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.z, __gmr_a, __gmr_b));                    \
  }                                                                            \
  __GMR_VFN V##4 clamp(V##4 __gmr_v, S __gmr_a, S __gmr_b) {                   \
    return make_##V##4(clamp(__gmr_v.x, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.y, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.z, __gmr_a, __gmr_b),                     \
                       clamp(__gmr_v.w, __gmr_a, __gmr_b));                    \
  }                                                                            \
  __GMR_VFN V##2 clamp(V##2 __gmr_v, V##2 __gmr_a, V##2 __gmr_b) {             \
    return make_##V##2(clamp(__gmr_v.x, __gmr_a.x, __gmr_b.x),                 \
                       clamp(__gmr_v.y, __gmr_a.y, __gmr_b.y));                \
  }                                                                            \
  __GMR_VFN V##3 clamp(V##3 __gmr_v, V##3 __gmr_a, V##3 __gmr_b) {             \
    return make_##V##3(clamp(__gmr_v.x, __gmr_a.x, __gmr_b.x),                 \
                       clamp(__gmr_v.y, __gmr_a.y, __gmr_b.y),                 \
                       clamp(__gmr_v.z, __gmr_a.z, __gmr_b.z));                \
  }                                                                            \
  __GMR_VFN V##4 clamp(V##4 __gmr_v, V##4 __gmr_a, V##4 __gmr_b) {             \
    return make_##V##4(clamp(__gmr_v.x, __gmr_a.x, __gmr_b.x),                 \
                       clamp(__gmr_v.y, __gmr_a.y, __gmr_b.y),                 \
                       clamp(__gmr_v.z, __gmr_a.z, __gmr_b.z),                 \
                       clamp(__gmr_v.w, __gmr_a.w, __gmr_b.w));                \
  }
__GMR_VEC_FUNCS(float, float)
__GMR_VEC_FUNCS(int, int)
__GMR_VEC_FUNCS(uint, unsigned int)
#undef __GMR_VEC_FUNCS

/* __GMR_FLOAT_FUNCS(N): the float-only functions for floatN. */
#define __GMR_FLOAT_FUNCS(N)                                                   \
  __GMR_VFN float length(float##N __gmr_v) {                                   \
    return sqrtf(dot(__gmr_v, __gmr_v));                                       \
  }                                                                            \
  __GMR_VFN float##N normalize(float##N __gmr_v) {                             \
    float __gmr_inv = rsqrtf(dot(__gmr_v, __gmr_v));                           \
    return __gmr_v * __gmr_inv;                                                \
  }                                                                            \
  __GMR_VFN float##N lerp(float##N __gmr_a, float##N __gmr_b, float __gmr_t) { \
    return __gmr_a + __gmr_t * (__gmr_b - __gmr_a);                            \
  }                                                                            \
  __GMR_VFN float##N smoothstep(float##N __gmr_a, float##N __gmr_b,            \
                                float##N __gmr_x) {                            \
    float##N __gmr_y =                                                         \
        clamp((__gmr_x - __gmr_a) / (__gmr_b - __gmr_a), 0.0f, 1.0f);          \
    return __gmr_y * __gmr_y *                                                 \
           (make_float##N(3.0f) - (make_float##N(2.0f) * __gmr_y));            \
  }
__GMR_FLOAT_FUNCS(2)
__GMR_FLOAT_FUNCS(3)
__GMR_FLOAT_FUNCS(4)
#undef __GMR_FLOAT_FUNCS

__GMR_VFN float3 cross(float3 __gmr_a, float3 __gmr_b) {
  return make_float3(__gmr_a.y * __gmr_b.z - __gmr_a.z * __gmr_b.y,
                     __gmr_a.z * __gmr_b.x - __gmr_a.x * __gmr_b.z,
                     __gmr_a.x * __gmr_b.y - __gmr_a.y * __gmr_b.x);
}
/* Reflection of the incident vector i about the surface normal n. */
__GMR_VFN float3 reflect(float3 __gmr_i, float3 __gmr_n) {
  return __gmr_i - 2.0f * __gmr_n * dot(__gmr_n, __gmr_i);
}

#undef __GMR_VFN

#endif /* GMRACE_VECTOR_OPS_H */
