/*
 * gmrace_prelude.h -- force-included by gmrace into every CUDA file:
 *
 *   clang-14 -x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc
 *     -nocudalib -Xclang -target-feature -Xclang +ptx70
 *     -I <gmrace>/analyzer/include -include gmrace_prelude.h ...
 *
 * 1. The whole stand-in CUDA API (what nvcc's implicit cuda_runtime.h gives):
 *    qualifiers, built-in variables, vector types, device library, atomics,
 *    warp intrinsics, printf/assert/malloc, host runtime API.
 * 2. Declarations of GPUVerify's specification language, so that kernels
 *    written for GPUVerify parse.
 *
 * GPUVerify annotations
 * ---------------------
 * GPUVerify implements several of these as macros over other primitives
 * (e.g. __read_implies(p, e) is __implies(__read(p), e)); here every one is a
 * separately named function so that the AST keeps the name gmrace looks for.
 * They are declarations only: gmrace recognises the calls by callee name and
 * there is nothing to run.  All are __host__ __device__ so they can be used
 * in any function; non-overloaded ones are extern "C" so that, if any is left
 * in generated code, the PTX symbol is the plain name (".extern .func
 * __requires").
 *
 * Statement-level use (`__requires(blockDim.x == 256);`) and use inside loop
 * conditions (`for (...; __invariant(i <= n), i < n; ...)`) both type-check:
 * the void functions are fine as the left operand of a comma.
 *
 * Differences from GPUVerify worth knowing:
 *  - __all(x) is CUDA's legacy warp vote `int __all(int)` here (GPUVerify
 *    reuses the name for "x holds in both threads"); use __other_bool instead.
 *  - __same_group / __distinct_block are `extern __device__ const bool`
 *    variables (GPUVerify writes __same_group without parentheses).
 *  - __axiom(e) at namespace scope defines an unused static __device__
 *    function named __axiom<__gmr_N> whose body is `return (e);`.
 */
#ifndef GMRACE_PRELUDE_H
#define GMRACE_PRELUDE_H

#include "gmrace_cuda.h"

/* ======================================================================== */
/* GPUVerify specification language                                         */
/* ======================================================================== */

#define GMRACE_SPEC __host__ __device__

extern "C" {

/* ---- pre/postconditions, assertions, assumptions ---- */
GMRACE_SPEC void __requires(bool expr);
GMRACE_SPEC void __global_requires(bool expr);
GMRACE_SPEC void __ensures(bool expr);
GMRACE_SPEC void __global_ensures(bool expr);
/* glibc's <assert.h> also declares extern "C" __assert(const char *,
 * const char *, int) (host only).  clang keeps the two apart because they
 * differ in execution space; calls with one bool argument pick this one. */
GMRACE_SPEC void __assert(bool expr);
GMRACE_SPEC void __global_assert(bool expr);
GMRACE_SPEC void __candidate_assert(bool expr);
GMRACE_SPEC void __candidate_global_assert(bool expr);
GMRACE_SPEC void __unsafe_assert(bool expr);
GMRACE_SPEC void __unsafe_global_assert(bool expr);
GMRACE_SPEC void __assume(bool expr);
GMRACE_SPEC void __assert_mod(bool expr);

/* ---- loop invariants ---- */
GMRACE_SPEC void __invariant(bool expr);
GMRACE_SPEC void __global_invariant(bool expr);
GMRACE_SPEC void __candidate_invariant(bool expr);
GMRACE_SPEC void __candidate_global_invariant(bool expr);
GMRACE_SPEC void __function_wide_invariant(bool expr);
GMRACE_SPEC void __function_wide_candidate_invariant(bool expr);

/* GPUVerify brackets specifications with these. */
GMRACE_SPEC void __non_temporal_loads_begin(void);
GMRACE_SPEC void __non_temporal_loads_end(void);

/* ---- logical helpers ---- */
GMRACE_SPEC bool __implies(bool antecedent, bool consequent);
GMRACE_SPEC bool __enabled(void);
GMRACE_SPEC bool __dominator_enabled(void);

/* ---- values in postconditions ---- */
GMRACE_SPEC int __return_val_int(void);
GMRACE_SPEC bool __return_val_bool(void);
GMRACE_SPEC void *__return_val_ptr(void);
GMRACE_SPEC void *__return_val_funptr(void);
GMRACE_SPEC int __old_int(int expr);
GMRACE_SPEC bool __old_bool(bool expr);

/* ---- two-thread (inter-thread) predicates ---- */
GMRACE_SPEC int __other_int(int expr);
GMRACE_SPEC bool __other_bool(bool expr);
GMRACE_SPEC unsigned int __other_unsigned(unsigned int expr);
GMRACE_SPEC int __other_ptr_base(int base);
GMRACE_SPEC bool __uniform_int(int expr);
GMRACE_SPEC bool __uniform_bool(bool expr);
GMRACE_SPEC bool __uniform_unsigned(unsigned int expr);
GMRACE_SPEC bool __uniform_ptr_base(int base);
GMRACE_SPEC bool __distinct_int(int expr);
GMRACE_SPEC bool __distinct_bool(bool expr);
GMRACE_SPEC bool __distinct_unsigned(unsigned int expr);
GMRACE_SPEC bool __distinct_ptr_base(int base);
GMRACE_SPEC bool __exclusive(bool expr);

/* ---- access-set queries; any object pointer converts to
 *      const volatile void * ---- */
GMRACE_SPEC bool __read(const volatile void *p);
GMRACE_SPEC bool __write(const volatile void *p);
GMRACE_SPEC bool __atomic(const volatile void *p);
GMRACE_SPEC bool __no_read(const volatile void *p);
GMRACE_SPEC bool __no_write(const volatile void *p);
GMRACE_SPEC bool __no_atomic(const volatile void *p);
GMRACE_SPEC bool __read_implies(const volatile void *p, bool expr);
GMRACE_SPEC bool __write_implies(const volatile void *p, bool expr);
GMRACE_SPEC bool __atomic_implies(const volatile void *p, bool expr);
GMRACE_SPEC size_t __read_offset(const volatile void *p);
GMRACE_SPEC size_t __write_offset(const volatile void *p);
GMRACE_SPEC size_t __atomic_offset(const volatile void *p);
GMRACE_SPEC size_t __read_offset_bytes(const volatile void *p);
GMRACE_SPEC size_t __write_offset_bytes(const volatile void *p);
GMRACE_SPEC size_t __atomic_offset_bytes(const volatile void *p);
GMRACE_SPEC size_t __not_accessed(const volatile void *p);
GMRACE_SPEC bool __accessed(const volatile void *p, size_t offset);
GMRACE_SPEC void __reads_from(const volatile void *p);
GMRACE_SPEC void __writes_to(const volatile void *p);

/* ---- pointer decomposition (GPUVerify's ptr_base_t is int) ---- */
GMRACE_SPEC int __ptr_base(const volatile void *p);
GMRACE_SPEC size_t __ptr_offset(const volatile void *p);
GMRACE_SPEC size_t __ptr_offset_bytes(const volatile void *p);

/* ---- arrays and atomics ---- */
GMRACE_SPEC void __requires_fresh_array(const volatile void *p);
GMRACE_SPEC void __array_snapshot(const volatile void *dst,
                                  const volatile void *src);
GMRACE_SPEC bool __atomic_has_taken_value(unsigned int *atomic_array,
                                          size_t offset, unsigned int value);

/* ---- bugle (GPUVerify front end) primitives ---- */
GMRACE_SPEC void bugle_assert(int expr);
GMRACE_SPEC void bugle_assume(int expr);
GMRACE_SPEC void bugle_requires(int expr);
GMRACE_SPEC void bugle_ensures(int expr);
GMRACE_SPEC void bugle_barrier(bool local_fence, bool global_fence);
GMRACE_SPEC void bugle_grid_barrier(void);

} /* extern "C" */

/* __return_val_funptr(__gmr_T): the return value as function-pointer type __gmr_T (as in
 * GPUVerify; the macro does not re-expand itself). */
#define __return_val_funptr(__gmr_T) ((__gmr_T)__return_val_funptr())

/* Written without parentheses in GPUVerify specifications:
 * `__implies(__same_group, __no_read(A))`. */
extern __device__ const bool __same_group;
extern __device__ const bool __distinct_block;

/* ---- overloaded / generic helpers (C++ linkage) ---- */

/* Power-of-two helpers; GPUVerify's are macros over any integer type. */
template <class __gmr_T> GMRACE_SPEC bool __is_pow2(__gmr_T x);
template <class __gmr_T, class __gmr_U> GMRACE_SPEC __gmr_T __mod_pow2(__gmr_T x, __gmr_U pow2);

/* "this sum/product of the arguments does not overflow" (any arity). */
template <class... __gmr_T> GMRACE_SPEC bool __add_noovfl(__gmr_T... values);
template <class... __gmr_T> GMRACE_SPEC bool __mul_noovfl(__gmr_T... values);

/* Barrier invariants: __barrier_invariant(expr, instantiation...). */
template <class... __gmr_T>
GMRACE_SPEC void __barrier_invariant(bool expr, __gmr_T... instantiations);
template <class... __gmr_T>
GMRACE_SPEC void __barrier_invariant_binary(bool expr, __gmr_T... instantiations);

/* Typed non-overflowing arithmetic, if-then-else and addition. */
#define GMRACE_SPEC_TYPED(__gmr_T, SUFFIX)                                           \
  extern "C" GMRACE_SPEC __gmr_T __add_noovfl_##SUFFIX(__gmr_T x, __gmr_T y);                    \
  extern "C" GMRACE_SPEC unsigned __gmr_T __add_noovfl_unsigned_##SUFFIX(           \
      unsigned __gmr_T x, unsigned __gmr_T y);                                             \
  extern "C" GMRACE_SPEC __gmr_T __ite_##SUFFIX(bool b, __gmr_T x, __gmr_T y);                   \
  extern "C" GMRACE_SPEC unsigned __gmr_T __ite_unsigned_##SUFFIX(                   \
      bool b, unsigned __gmr_T x, unsigned __gmr_T y);                                     \
  GMRACE_SPEC __gmr_T __ite(bool b, __gmr_T x, __gmr_T y);                                       \
  GMRACE_SPEC unsigned __gmr_T __ite(bool b, unsigned __gmr_T x, unsigned __gmr_T y);            \
  GMRACE_SPEC __gmr_T __add(__gmr_T x, __gmr_T y);                                               \
  GMRACE_SPEC unsigned __gmr_T __add(unsigned __gmr_T x, unsigned __gmr_T y);
GMRACE_SPEC_TYPED(char, char)
GMRACE_SPEC_TYPED(short, short)
GMRACE_SPEC_TYPED(int, int)
GMRACE_SPEC_TYPED(long, long)
#undef GMRACE_SPEC_TYPED
GMRACE_SPEC long long __ite(bool b, long long x, long long y);
GMRACE_SPEC unsigned long long __ite(bool b, unsigned long long x,
                                     unsigned long long y);

/* __axiom(e) at namespace scope.  Needs a definition to be legal there; the
 * function is named __axiom<counter> (as in GPUVerify) and never called. */
#define __gmrace_axiom_concat(a, b) a##b
#define __gmrace_axiom_name(n) __gmrace_axiom_concat(__axiom, n)
#define __axiom(expr)                                                          \
  static __device__ __inline__ __attribute__((unused)) bool                    \
  __gmrace_axiom_name(__COUNTER__)(void) {                                     \
    return (expr);                                                             \
  }

#undef GMRACE_SPEC

#endif /* GMRACE_PRELUDE_H */
