/*
 * gmrace stand-in CUDA headers: built-in variables and device-side library.
 *
 * Internal part of gmrace_cuda.h.  Public names: <device_functions.h>,
 * <math_functions.h>, <device_launch_parameters.h>, <sm_30_intrinsics.h>...
 *
 * Strategy: reproduce what clang's __clang_cuda_runtime_wrapper.h does, minus
 * the parts that need NVIDIA's headers.  clang ships self-contained device
 * implementations (in terms of __nvvm_* builtins and libdevice __nv_*
 * functions) in its resource directory:
 *   __clang_cuda_builtin_vars.h      threadIdx, blockIdx, blockDim, gridDim,
 *                                    warpSize
 *   __clang_cuda_libdevice_declares.h  __nv_* declarations
 *   __clang_cuda_device_functions.h  __popc, __ffs, __syncthreads_count,
 *                                    __threadfence, __expf, __fdividef, ...,
 *                                    the __iAtomicAdd-style atomic helpers,
 *                                    clock(), clock64(), device memcpy/memset
 *   __clang_cuda_math.h              sqrtf, expf, sin, pow, min(int,int), ...
 *   __clang_cuda_cmath.h             std:: overloads, isnan/isinf, ...
 *   __clang_cuda_intrinsics.h        __shfl*, __shfl*_sync, vote, __ldg,
 *                                    __syncwarp, __activemask, __match*
 * Those are included here, in the same order as the wrapper does.  Anything
 * the wrapper takes from the CUDA toolkit is provided by gmrace files.
 *
 * With -nocudalib the __nv_* libdevice functions stay undefined: PTX for code
 * that calls e.g. sinf() contains ".extern .func __nv_sinf" until libdevice
 * is linked.  Intrinsics that map to __nvvm_* builtins compile to real PTX,
 * and the simplest libdevice functions are inlined (see below).
 */
#ifndef GMRACE_DEVICE_FUNCTIONS_H
#define GMRACE_DEVICE_FUNCTIONS_H

#include "gmrace_host_defines.h"
#include "gmrace_vector_types.h"

/* ---- standard headers --------------------------------------------------
 * clang's device overloads of the math functions must be declared before
 * <cmath> is seen (libstdc++ pulls them into namespace std with using
 * declarations), so the prelude has to come before any user #include.
 * nvcc's cuda_runtime.h also makes <stdio.h>, <stdlib.h>, <string.h> and the
 * math functions visible, and lots of CUDA samples rely on that. */
#include <__clang_cuda_math_forward_declares.h>
#include <cmath>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

/* From the driver API (cuda.h); clang's intrinsics header uses cuuint32_t. */
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

/* ---- built-in variables -------------------------------------------------
 * Default: clang's own representation (__clang_cuda_builtin_vars.h).
 * threadIdx/blockIdx/blockDim/gridDim are objects of the empty structs
 * __cuda_builtin_{threadIdx,blockIdx,blockDim,gridDim}_t whose members x, y,
 * z are __declspec(property) with getters calling __nvvm_read_ptx_sreg_*();
 * `threadIdx.x` is a PseudoObjectExpr over an MSPropertyRefExpr, of type
 * unsigned int, and compiles to `mov.u32 %r, %tid.x`.
 * warpSize is `__device__ const int warpSize = 32`.
 *
 * -DGMRACE_PLAIN_BUILTIN_VARS (analysis only, never for PTX): the variables
 * are plain `extern const __device__ uint3/dim3` objects instead, so that
 * `threadIdx.x` is an ordinary MemberExpr naming the FieldDecl uint3::x.  The
 * generated code would load from undefined globals, so do not compile
 * instrumented output with this macro. */
#ifdef GMRACE_PLAIN_BUILTIN_VARS
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
__device__ const int warpSize = 32;
#else
#include <__clang_cuda_builtin_vars.h>
#endif

/* ---- legacy (non-.sync) warp intrinsics on sm_70+ -----------------------
 * clang implements __shfl/__shfl_up/__shfl_down/__shfl_xor and
 * __any/__all/__ballot with the non-sync __nvvm_shfl_* / __nvvm_vote_*
 * builtins, which the NVPTX back end cannot emit for sm_70 (PTX dropped them
 * for Volta+; real CUDA removes these functions there).  Old kernels still use
 * them, so while clang's headers are parsed the builtins are redirected to
 * the .sync forms over the currently active lanes -- the pre-Volta meaning.
 * The user-visible function names do not change. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
static __device__ __forceinline__ unsigned int __gmrace_active_lanes(void) {
  unsigned int mask;
  __asm__ __volatile__("activemask.b32 %0;" : "=r"(mask));
  return mask;
}
#define GMRACE_LEGACY_WARP_REDIRECT 1
#pragma push_macro("__nvvm_vote_all")
#pragma push_macro("__nvvm_vote_any")
#pragma push_macro("__nvvm_vote_ballot")
#pragma push_macro("__nvvm_shfl_idx_i32")
#pragma push_macro("__nvvm_shfl_idx_f32")
#pragma push_macro("__nvvm_shfl_up_i32")
#pragma push_macro("__nvvm_shfl_up_f32")
#pragma push_macro("__nvvm_shfl_down_i32")
#pragma push_macro("__nvvm_shfl_down_f32")
#pragma push_macro("__nvvm_shfl_bfly_i32")
#pragma push_macro("__nvvm_shfl_bfly_f32")
#define __nvvm_vote_all(p) __nvvm_vote_all_sync(__gmrace_active_lanes(), p)
#define __nvvm_vote_any(p) __nvvm_vote_any_sync(__gmrace_active_lanes(), p)
#define __nvvm_vote_ballot(p)                                                  \
  __nvvm_vote_ballot_sync(__gmrace_active_lanes(), p)
#define __nvvm_shfl_idx_i32(v, o, c)                                           \
  __nvvm_shfl_sync_idx_i32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_idx_f32(v, o, c)                                           \
  __nvvm_shfl_sync_idx_f32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_up_i32(v, o, c)                                            \
  __nvvm_shfl_sync_up_i32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_up_f32(v, o, c)                                            \
  __nvvm_shfl_sync_up_f32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_down_i32(v, o, c)                                          \
  __nvvm_shfl_sync_down_i32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_down_f32(v, o, c)                                          \
  __nvvm_shfl_sync_down_f32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_bfly_i32(v, o, c)                                          \
  __nvvm_shfl_sync_bfly_i32(__gmrace_active_lanes(), v, o, c)
#define __nvvm_shfl_bfly_f32(v, o, c)                                          \
  __nvvm_shfl_sync_bfly_f32(__gmrace_active_lanes(), v, o, c)
#endif

/* ---- clang's device library -------------------------------------------- */
#include <__clang_cuda_libdevice_declares.h>

/* Inline replacements for the simplest libdevice functions.  clang's wrappers
 * call libdevice even for __popc or fminf; with -nocudalib those calls stay
 * unresolved in the PTX.  While clang's headers are parsed, the libdevice
 * names below are macros for builtins with the same semantics that the NVPTX
 * back end lowers to single instructions (popc, clz, brev, mul.hi, min.f32,
 * sqrt.rn.f32, ...), so kernels using only these need no libdevice.
 * Transcendentals (sinf, expf, powf, ...) still call __nv_* functions.
 * The macros are removed again after the headers (GMRACE_LIBDEVICE_INLINE). */
#define GMRACE_LIBDEVICE_INLINE 1
#define __nv_popc(a) __builtin_popcount((unsigned int)(a))
#define __nv_popcll(a) __builtin_popcountll((unsigned long long)(a))
#define __nv_clz(a) ((a) == 0 ? 32 : __builtin_clz((unsigned int)(a)))
#define __nv_clzll(a)                                                          \
  ((a) == 0 ? 64 : __builtin_clzll((unsigned long long)(a)))
#define __nv_ffs(a) __builtin_ffs(a)
#define __nv_ffsll(a) __builtin_ffsll(a)
#define __nv_brev(a) ((int)__builtin_bitreverse32((unsigned int)(a)))
#define __nv_brevll(a)                                                         \
  ((long long)__builtin_bitreverse64((unsigned long long)(a)))
#define __nv_mulhi(a, b) __nvvm_mulhi_i(a, b)
#define __nv_umulhi(a, b) __nvvm_mulhi_ui(a, b)
#define __nv_mul64hi(a, b) __nvvm_mulhi_ll(a, b)
#define __nv_umul64hi(a, b) __nvvm_mulhi_ull(a, b)
#define __nv_mul24(a, b) __nvvm_mul24_i(a, b)
#define __nv_umul24(a, b) __nvvm_mul24_ui(a, b)
#define __nv_sad(a, b, c) __nvvm_sad_i(a, b, c)
#define __nv_usad(a, b, c) __nvvm_sad_ui(a, b, c)
#define __nv_byte_perm(a, b, c) ((int)__nvvm_prmt(a, b, c))
#define __nv_hadd(a, b) ((int)(((long long)(a) + (long long)(b)) >> 1))
#define __nv_rhadd(a, b) ((int)(((long long)(a) + (long long)(b) + 1) >> 1))
#define __nv_uhadd(a, b)                                                       \
  ((unsigned int)(((unsigned long long)(a) + (unsigned long long)(b)) >> 1))
#define __nv_urhadd(a, b)                                                      \
  ((unsigned int)(((unsigned long long)(a) + (unsigned long long)(b) + 1) >> 1))
#define __nv_min(a, b) ((a) < (b) ? (a) : (b))
#define __nv_max(a, b) ((a) > (b) ? (a) : (b))
#define __nv_umin(a, b) ((a) < (b) ? (a) : (b))
#define __nv_umax(a, b) ((a) > (b) ? (a) : (b))
#define __nv_llmin(a, b) ((a) < (b) ? (a) : (b))
#define __nv_llmax(a, b) ((a) > (b) ? (a) : (b))
#define __nv_ullmin(a, b) ((a) < (b) ? (a) : (b))
#define __nv_ullmax(a, b) ((a) > (b) ? (a) : (b))
#define __nv_abs(a) __builtin_abs(a)
#define __nv_llabs(a) __builtin_llabs(a)
#define __nv_fminf(a, b) __builtin_fminf(a, b)
#define __nv_fmaxf(a, b) __builtin_fmaxf(a, b)
#define __nv_fmin(a, b) __builtin_fmin(a, b)
#define __nv_fmax(a, b) __builtin_fmax(a, b)
#define __nv_fabsf(a) __builtin_fabsf(a)
#define __nv_fabs(a) __builtin_fabs(a)
#define __nv_sqrtf(a) __builtin_sqrtf(a)
#define __nv_sqrt(a) __builtin_sqrt(a)
#define __nv_floorf(a) __builtin_floorf(a)
#define __nv_floor(a) __builtin_floor(a)
#define __nv_ceilf(a) __builtin_ceilf(a)
#define __nv_ceil(a) __builtin_ceil(a)
#define __nv_truncf(a) __builtin_truncf(a)
#define __nv_trunc(a) __builtin_trunc(a)
#define __nv_rintf(a) __builtin_rintf(a)
#define __nv_rint(a) __builtin_rint(a)
#define __nv_fmaf(a, b, c) __builtin_fmaf(a, b, c)
#define __nv_fma(a, b, c) __builtin_fma(a, b, c)
#define __nv_saturatef(a) __nvvm_saturate_f(a)
#define __nv_roundf(a) __builtin_roundf(a)
#define __nv_round(a) __builtin_round(a)
#define __nv_copysignf(a, b) __builtin_copysignf(a, b)
#define __nv_copysign(a, b) __builtin_copysign(a, b)
#define __nv_float2ll_rn(a) __nvvm_f2ll_rn(a)
/* bit casts, conversions with rounding mode, classification */
#define __nv_float_as_int(a) __nvvm_bitcast_f2i(a)
#define __nv_int_as_float(a) __nvvm_bitcast_i2f(a)
#define __nv_float_as_uint(a) ((unsigned int)__nvvm_bitcast_f2i(a))
#define __nv_uint_as_float(a) __nvvm_bitcast_i2f((int)(a))
#define __nv_double_as_longlong(a) __nvvm_bitcast_d2ll(a)
#define __nv_longlong_as_double(a) __nvvm_bitcast_ll2d(a)
#define __nv_float2int_rn(a) __nvvm_f2i_rn(a)
#define __nv_float2uint_rn(a) __nvvm_f2ui_rn(a)
#define __nv_int2float_rn(a) __nvvm_i2f_rn(a)
#define __nv_uint2float_rn(a) __nvvm_ui2f_rn(a)
#define __nv_double2float_rn(a) __nvvm_d2f_rn(a)
#define __nv_fadd_rn(a, b) __nvvm_add_rn_f(a, b)
#define __nv_fmul_rn(a, b) __nvvm_mul_rn_f(a, b)
#define __nv_dadd_rn(a, b) __nvvm_add_rn_d(a, b)
#define __nv_dmul_rn(a, b) __nvvm_mul_rn_d(a, b)
#define __nv_isnanf(a) __builtin_isnan(a)
#define __nv_isnand(a) __builtin_isnan(a)
#define __nv_isinff(a) __builtin_isinf(a)
#define __nv_isinfd(a) __builtin_isinf(a)
#define __nv_finitef(a) __builtin_isfinite(a)
#define __nv_isfinited(a) __builtin_isfinite(a)
#define __nv_signbitf(a) __builtin_signbit(a)
#define __nv_signbitd(a) __builtin_signbit(a)
/* the hardware approximations behind __sinf, __expf, __fdividef, rsqrtf... */
#define __nv_rsqrtf(a) __nvvm_rsqrt_approx_f(a)
#define __nv_fast_fdividef(a, b) __nvvm_div_approx_f(a, b)
#define __nv_fast_sinf(a) __nvvm_sin_approx_f(a)
#define __nv_fast_cosf(a) __nvvm_cos_approx_f(a)
#define __nv_fast_log2f(a) __nvvm_lg2_approx_f(a)
#define __nv_fast_logf(a) (__nvvm_lg2_approx_f(a) * 0.69314718055994531f)
#define __nv_fast_log10f(a) (__nvvm_lg2_approx_f(a) * 0.30102999566398120f)
#define __nv_fast_expf(a) __nvvm_ex2_approx_f((a) * 1.4426950408889634f)
#define __nv_fast_exp10f(a) __nvvm_ex2_approx_f((a) * 3.3219280948873623f)
#define __nv_fast_powf(a, b) __nvvm_ex2_approx_f((b) * __nvvm_lg2_approx_f(a))

#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

/* ---- device-side C library ----------------------------------------------
 * Same declarations as clang's wrapper: clang lowers printf to vprintf and
 * lets __device__ overloads coexist with the host declarations of <stdio.h>
 * and <stdlib.h> (overloading on the execution space). */
extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow))
__attribute__((malloc));

/* assert() in device code: glibc's assert macro calls __assert_fail, which
 * is forwarded to the CUDA system call __assertfail. */
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file, unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
} /* extern "C" */

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) {
  return ::malloc(__size);
}
} /* namespace std */

#ifndef GMRACE_PLAIN_BUILTIN_VARS
/* Conversions of the built-in variables to dim3/uint3, declared (but not
 * defined) by __clang_cuda_builtin_vars.h. */
__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}
#endif /* !GMRACE_PLAIN_BUILTIN_VARS */

#include <__clang_cuda_cmath.h>
/* Its sm_90 part calls these, which CUDA's sm_20_intrinsics.hpp declares before it: defined
 * below, with the other additions clang leaves to the toolkit. */
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isShared(const void *p);
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void *p);
/* Includes "crt/sm_70_rt.hpp", which gmrace provides (crt/sm_70_rt.hpp). */
#include <__clang_cuda_intrinsics.h>

#ifdef GMRACE_LIBDEVICE_INLINE
#undef GMRACE_LIBDEVICE_INLINE
#undef __nv_popc
#undef __nv_popcll
#undef __nv_clz
#undef __nv_clzll
#undef __nv_ffs
#undef __nv_ffsll
#undef __nv_brev
#undef __nv_brevll
#undef __nv_mulhi
#undef __nv_umulhi
#undef __nv_mul64hi
#undef __nv_umul64hi
#undef __nv_mul24
#undef __nv_umul24
#undef __nv_sad
#undef __nv_usad
#undef __nv_byte_perm
#undef __nv_hadd
#undef __nv_rhadd
#undef __nv_uhadd
#undef __nv_urhadd
#undef __nv_min
#undef __nv_max
#undef __nv_umin
#undef __nv_umax
#undef __nv_llmin
#undef __nv_llmax
#undef __nv_ullmin
#undef __nv_ullmax
#undef __nv_abs
#undef __nv_llabs
#undef __nv_fminf
#undef __nv_fmaxf
#undef __nv_fmin
#undef __nv_fmax
#undef __nv_fabsf
#undef __nv_fabs
#undef __nv_sqrtf
#undef __nv_sqrt
#undef __nv_floorf
#undef __nv_floor
#undef __nv_ceilf
#undef __nv_ceil
#undef __nv_truncf
#undef __nv_trunc
#undef __nv_rintf
#undef __nv_rint
#undef __nv_fmaf
#undef __nv_fma
#undef __nv_saturatef
#undef __nv_roundf
#undef __nv_round
#undef __nv_copysignf
#undef __nv_copysign
#undef __nv_float2ll_rn
#undef __nv_float_as_int
#undef __nv_int_as_float
#undef __nv_float_as_uint
#undef __nv_uint_as_float
#undef __nv_double_as_longlong
#undef __nv_longlong_as_double
#undef __nv_float2int_rn
#undef __nv_float2uint_rn
#undef __nv_int2float_rn
#undef __nv_uint2float_rn
#undef __nv_double2float_rn
#undef __nv_fadd_rn
#undef __nv_fmul_rn
#undef __nv_dadd_rn
#undef __nv_dmul_rn
#undef __nv_isnanf
#undef __nv_isnand
#undef __nv_isinff
#undef __nv_isinfd
#undef __nv_finitef
#undef __nv_isfinited
#undef __nv_signbitf
#undef __nv_signbitd
#undef __nv_rsqrtf
#undef __nv_fast_fdividef
#undef __nv_fast_sinf
#undef __nv_fast_cosf
#undef __nv_fast_log2f
#undef __nv_fast_logf
#undef __nv_fast_log10f
#undef __nv_fast_expf
#undef __nv_fast_exp10f
#undef __nv_fast_powf
#endif

#ifdef GMRACE_LEGACY_WARP_REDIRECT
#undef GMRACE_LEGACY_WARP_REDIRECT
#pragma pop_macro("__nvvm_vote_all")
#pragma pop_macro("__nvvm_vote_any")
#pragma pop_macro("__nvvm_vote_ballot")
#pragma pop_macro("__nvvm_shfl_idx_i32")
#pragma pop_macro("__nvvm_shfl_idx_f32")
#pragma pop_macro("__nvvm_shfl_up_i32")
#pragma pop_macro("__nvvm_shfl_up_f32")
#pragma pop_macro("__nvvm_shfl_down_i32")
#pragma pop_macro("__nvvm_shfl_down_f32")
#pragma pop_macro("__nvvm_shfl_bfly_i32")
#pragma pop_macro("__nvvm_shfl_bfly_f32")
#endif

/* ---- additions that clang leaves to the toolkit ------------------------ */

/* Address-space predicates (sm_20_intrinsics in CUDA). */
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isGlobal(const void *p) {
  return __nvvm_isspacep_global(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isShared(const void *p) {
  return __nvvm_isspacep_shared(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isConstant(const void *p) {
  return __nvvm_isspacep_const(p);
}
static __device__ __forceinline__ __attribute__((const)) unsigned int
__isLocal(const void *p) {
  return __nvvm_isspacep_local(p);
}

/* Generic <-> specific address conversions (CUDA 11). */
static __device__ __forceinline__ size_t
__cvta_generic_to_global(const void *p) {
  return __nv_cvta_generic_to_global_impl(p);
}
static __device__ __forceinline__ size_t
__cvta_generic_to_shared(const void *p) {
  return __nv_cvta_generic_to_shared_impl(p);
}
static __device__ __forceinline__ void *__cvta_global_to_generic(size_t a) {
  return __nv_cvta_global_to_generic_impl(a);
}
static __device__ __forceinline__ void *__cvta_shared_to_generic(size_t a) {
  return __nv_cvta_shared_to_generic_impl(a);
}

/* __nanosleep (sm_70+): no clang 14 builtin, so inline PTX. */
static __device__ __forceinline__ void __nanosleep(unsigned int ns) {
  __asm__ __volatile__("nanosleep.u32 %0;" ::"r"(ns));
}

/* Cache-hinted loads/stores (sm_32 intrinsics).  The hints do not matter for
 * analysis; these are plain accesses. */
template <typename __gmr_T> static __device__ __forceinline__ __gmr_T __ldcg(const __gmr_T *p) {
  return *p;
}
template <typename __gmr_T> static __device__ __forceinline__ __gmr_T __ldca(const __gmr_T *p) {
  return *p;
}
template <typename __gmr_T> static __device__ __forceinline__ __gmr_T __ldcs(const __gmr_T *p) {
  return *p;
}
template <typename __gmr_T> static __device__ __forceinline__ __gmr_T __ldlu(const __gmr_T *p) {
  return *p;
}
template <typename __gmr_T> static __device__ __forceinline__ __gmr_T __ldcv(const __gmr_T *p) {
  return *p;
}
template <typename __gmr_T>
static __device__ __forceinline__ void __stwb(__gmr_T *p, __gmr_T v) {
  *p = v;
}
template <typename __gmr_T>
static __device__ __forceinline__ void __stcg(__gmr_T *p, __gmr_T v) {
  *p = v;
}
template <typename __gmr_T>
static __device__ __forceinline__ void __stcs(__gmr_T *p, __gmr_T v) {
  *p = v;
}
template <typename __gmr_T>
static __device__ __forceinline__ void __stwt(__gmr_T *p, __gmr_T v) {
  *p = v;
}

/* Four-way byte dot product with accumulate (sm_61 on): the sum of the products of the
 * corresponding bytes of a and b, signed or unsigned, plus c. */
static __device__ __forceinline__ int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 4; i++)
    c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
  return c;
}
static __device__ __forceinline__ unsigned int __dp4a(unsigned int a, unsigned int b,
                                                      unsigned int c) {
  for (int i = 0; i < 4; i++)
    c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
  return c;
}
static __device__ __forceinline__ int __dp4a(char4 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
static __device__ __forceinline__ unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/* Two-way dot product (sm_61 on): the two 16-bit halves of a times two bytes of b, the low
 * two bytes (_lo) or the high two (_hi), plus c. */
static __device__ __forceinline__ int __gmr_dp2a(int a, int b, int c, int from) {
  return c + (int)(short)a * (int)(signed char)(b >> from) +
         (int)(short)(a >> 16) * (int)(signed char)(b >> (from + 8));
}
static __device__ __forceinline__ unsigned int __gmr_dp2a(unsigned int a, unsigned int b,
                                                          unsigned int c, int from) {
  return c + (a & 0xffffu) * ((b >> from) & 0xffu) + (a >> 16) * ((b >> (from + 8)) & 0xffu);
}
static __device__ __forceinline__ int __dp2a_lo(int a, int b, int c) { return __gmr_dp2a(a, b, c, 0); }
static __device__ __forceinline__ int __dp2a_hi(int a, int b, int c) { return __gmr_dp2a(a, b, c, 16); }
static __device__ __forceinline__ unsigned int __dp2a_lo(unsigned int a, unsigned int b,
                                                         unsigned int c) {
  return __gmr_dp2a(a, b, c, 0);
}
static __device__ __forceinline__ unsigned int __dp2a_hi(unsigned int a, unsigned int b,
                                                         unsigned int c) {
  return __gmr_dp2a(a, b, c, 16);
}
static __device__ __forceinline__ int __dp2a_lo(short2 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y;
}
static __device__ __forceinline__ int __dp2a_hi(short2 a, char4 b, int c) {
  return c + a.x * b.z + a.y * b.w;
}
static __device__ __forceinline__ unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) {
  return c + a.x * b.x + a.y * b.y;
}
static __device__ __forceinline__ unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) {
  return c + a.x * b.z + a.y * b.w;
}

/* The DPX intrinsics (CUDA 12), which the toolkit's device_functions.h declares too. */
#include "gmrace_dpx.h"

#endif /* GMRACE_DEVICE_FUNCTIONS_H */
