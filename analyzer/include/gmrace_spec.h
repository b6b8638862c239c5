/*
 * gmrace_spec.h -- GPUVerify's specification language, force-included by gmrace
 * into every CUDA file, with the stand-in headers (through gmrace_prelude.h) and
 * with a real toolkit's (through toolkit/gmrace_toolkit_prelude.h: nvcc's own
 * force-included headers then come from the toolkit).
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
#ifndef GMRACE_SPEC_H
#define GMRACE_SPEC_H

/* Included after the CUDA headers (the stand-ins' or clang's wrapper of a
 * toolkit's), which define __host__ and __device__. */
#include <stddef.h>

/* ======================================================================== */
/* GPUVerify specification language                                         */
/* ======================================================================== */

#define GMRACE_SPEC __host__ __device__

extern "C" {

/* ---- pre/postconditions, assertions, assumptions ---- */
GMRACE_SPEC void __requires(bool __gmr_expr);
GMRACE_SPEC void __global_requires(bool __gmr_expr);
GMRACE_SPEC void __ensures(bool __gmr_expr);
GMRACE_SPEC void __global_ensures(bool __gmr_expr);
/* glibc's <assert.h> also declares extern "C" __assert(const char *,
 * const char *, int) (host only).  clang keeps the two apart because they
 * differ in execution space; calls with one bool argument pick this one. */
GMRACE_SPEC void __assert(bool __gmr_expr);
GMRACE_SPEC void __global_assert(bool __gmr_expr);
GMRACE_SPEC void __candidate_assert(bool __gmr_expr);
GMRACE_SPEC void __candidate_global_assert(bool __gmr_expr);
GMRACE_SPEC void __unsafe_assert(bool __gmr_expr);
GMRACE_SPEC void __unsafe_global_assert(bool __gmr_expr);
GMRACE_SPEC void __assume(bool __gmr_expr);
GMRACE_SPEC void __assert_mod(bool __gmr_expr);

/* ---- loop invariants ---- */
GMRACE_SPEC void __invariant(bool __gmr_expr);
GMRACE_SPEC void __global_invariant(bool __gmr_expr);
GMRACE_SPEC void __candidate_invariant(bool __gmr_expr);
GMRACE_SPEC void __candidate_global_invariant(bool __gmr_expr);
GMRACE_SPEC void __function_wide_invariant(bool __gmr_expr);
GMRACE_SPEC void __function_wide_candidate_invariant(bool __gmr_expr);

/* GPUVerify brackets specifications with these. */
GMRACE_SPEC void __non_temporal_loads_begin(void);
GMRACE_SPEC void __non_temporal_loads_end(void);

/* ---- logical helpers ---- */
GMRACE_SPEC bool __implies(bool __gmr_antecedent, bool __gmr_consequent);
GMRACE_SPEC bool __enabled(void);
GMRACE_SPEC bool __dominator_enabled(void);

/* ---- values in postconditions ---- */
GMRACE_SPEC int __return_val_int(void);
GMRACE_SPEC bool __return_val_bool(void);
GMRACE_SPEC void *__return_val_ptr(void);
GMRACE_SPEC void *__return_val_funptr(void);
GMRACE_SPEC int __old_int(int __gmr_expr);
GMRACE_SPEC bool __old_bool(bool __gmr_expr);

/* ---- two-thread (inter-thread) predicates ---- */
GMRACE_SPEC int __other_int(int __gmr_expr);
GMRACE_SPEC bool __other_bool(bool __gmr_expr);
GMRACE_SPEC unsigned int __other_unsigned(unsigned int __gmr_expr);
GMRACE_SPEC int __other_ptr_base(int __gmr_base);
GMRACE_SPEC bool __uniform_int(int __gmr_expr);
GMRACE_SPEC bool __uniform_bool(bool __gmr_expr);
GMRACE_SPEC bool __uniform_unsigned(unsigned int __gmr_expr);
GMRACE_SPEC bool __uniform_ptr_base(int __gmr_base);
GMRACE_SPEC bool __distinct_int(int __gmr_expr);
GMRACE_SPEC bool __distinct_bool(bool __gmr_expr);
GMRACE_SPEC bool __distinct_unsigned(unsigned int __gmr_expr);
GMRACE_SPEC bool __distinct_ptr_base(int __gmr_base);
GMRACE_SPEC bool __exclusive(bool __gmr_expr);

/* ---- access-set queries; any object pointer converts to
 *      const volatile void * ---- */
GMRACE_SPEC bool __read(const volatile void *__gmr_p);
GMRACE_SPEC bool __write(const volatile void *__gmr_p);
GMRACE_SPEC bool __atomic(const volatile void *__gmr_p);
GMRACE_SPEC bool __no_read(const volatile void *__gmr_p);
GMRACE_SPEC bool __no_write(const volatile void *__gmr_p);
GMRACE_SPEC bool __no_atomic(const volatile void *__gmr_p);
GMRACE_SPEC bool __read_implies(const volatile void *__gmr_p, bool __gmr_e);
GMRACE_SPEC bool __write_implies(const volatile void *__gmr_p, bool __gmr_e);
GMRACE_SPEC bool __atomic_implies(const volatile void *__gmr_p, bool __gmr_e);
GMRACE_SPEC size_t __read_offset(const volatile void *__gmr_p);
GMRACE_SPEC size_t __write_offset(const volatile void *__gmr_p);
GMRACE_SPEC size_t __atomic_offset(const volatile void *__gmr_p);
GMRACE_SPEC size_t __read_offset_bytes(const volatile void *__gmr_p);
GMRACE_SPEC size_t __write_offset_bytes(const volatile void *__gmr_p);
GMRACE_SPEC size_t __atomic_offset_bytes(const volatile void *__gmr_p);
GMRACE_SPEC size_t __not_accessed(const volatile void *__gmr_p);
GMRACE_SPEC bool __accessed(const volatile void *__gmr_p, size_t __gmr_offset);
GMRACE_SPEC void __reads_from(const volatile void *__gmr_p);
GMRACE_SPEC void __writes_to(const volatile void *__gmr_p);

/* ---- pointer decomposition (GPUVerify's ptr_base_t is int) ---- */
GMRACE_SPEC int __ptr_base(const volatile void *__gmr_p);
GMRACE_SPEC size_t __ptr_offset(const volatile void *__gmr_p);
GMRACE_SPEC size_t __ptr_offset_bytes(const volatile void *__gmr_p);

/* ---- arrays and atomics ---- */
GMRACE_SPEC void __requires_fresh_array(const volatile void *__gmr_p);
GMRACE_SPEC void __array_snapshot(const volatile void *__gmr_dst,
                                  const volatile void *__gmr_src);
GMRACE_SPEC bool __atomic_has_taken_value(unsigned int *__gmr_atomic_array,
                                          size_t __gmr_offset,
                                          unsigned int __gmr_value);

/* ---- bugle (GPUVerify front end) primitives ---- */
GMRACE_SPEC void bugle_assert(int __gmr_expr);
GMRACE_SPEC void bugle_assume(int __gmr_expr);
GMRACE_SPEC void bugle_requires(int __gmr_expr);
GMRACE_SPEC void bugle_ensures(int __gmr_expr);
GMRACE_SPEC void bugle_barrier(bool __gmr_local_fence, bool __gmr_global_fence);
GMRACE_SPEC void bugle_grid_barrier(void);

} /* extern "C" */

/* __return_val_funptr(__gmr_T): the return value as function-pointer type
 * __gmr_T (as in GPUVerify; the macro does not re-expand itself). */
#define __return_val_funptr(__gmr_T) ((__gmr_T)__return_val_funptr())

/* Written without parentheses in GPUVerify specifications:
 * `__implies(__same_group, __no_read(A))`. */
extern __device__ const bool __same_group;
extern __device__ const bool __distinct_block;

/* ---- overloaded / generic helpers (C++ linkage) ---- */

/* Power-of-two helpers; GPUVerify's are macros over any integer type. */
template <class __gmr_T> GMRACE_SPEC bool __is_pow2(__gmr_T __gmr_x);
template <class __gmr_T, class __gmr_U>
GMRACE_SPEC __gmr_T __mod_pow2(__gmr_T __gmr_x, __gmr_U __gmr_pow2);

/* "this sum/product of the arguments does not overflow" (any arity). */
template <class... __gmr_T>
GMRACE_SPEC bool __add_noovfl(__gmr_T... __gmr_values);
template <class... __gmr_T>
GMRACE_SPEC bool __mul_noovfl(__gmr_T... __gmr_values);

/* Barrier invariants: __barrier_invariant(expr, instantiation...). */
template <class... __gmr_T>
GMRACE_SPEC void __barrier_invariant(bool __gmr_expr,
                                     __gmr_T... __gmr_instantiations);
template <class... __gmr_T>
GMRACE_SPEC void __barrier_invariant_binary(bool __gmr_expr,
                                            __gmr_T... __gmr_instantiations);

/* Typed non-overflowing arithmetic, if-then-else and addition. */
#define GMRACE_SPEC_TYPED(__gmr_T, SUFFIX)                                     \
  extern "C" GMRACE_SPEC __gmr_T __add_noovfl_##SUFFIX(__gmr_T, __gmr_T);      \
  extern "C" GMRACE_SPEC unsigned __gmr_T __add_noovfl_unsigned_##SUFFIX(      \
      unsigned __gmr_T, unsigned __gmr_T);                                     \
  extern "C" GMRACE_SPEC __gmr_T __ite_##SUFFIX(bool, __gmr_T, __gmr_T);       \
  extern "C" GMRACE_SPEC unsigned __gmr_T __ite_unsigned_##SUFFIX(             \
      bool, unsigned __gmr_T, unsigned __gmr_T);                               \
  GMRACE_SPEC __gmr_T __ite(bool, __gmr_T, __gmr_T);                           \
  GMRACE_SPEC unsigned __gmr_T __ite(bool, unsigned __gmr_T,                   \
                                     unsigned __gmr_T);                        \
  GMRACE_SPEC __gmr_T __add(__gmr_T, __gmr_T);                                 \
  GMRACE_SPEC unsigned __gmr_T __add(unsigned __gmr_T, unsigned __gmr_T);
GMRACE_SPEC_TYPED(char, char)
GMRACE_SPEC_TYPED(short, short)
GMRACE_SPEC_TYPED(int, int)
GMRACE_SPEC_TYPED(long, long)
#undef GMRACE_SPEC_TYPED
GMRACE_SPEC long long __ite(bool __gmr_b, long long __gmr_x, long long __gmr_y);
GMRACE_SPEC unsigned long long __ite(bool __gmr_b, unsigned long long __gmr_x,
                                     unsigned long long __gmr_y);

/* __axiom(e) at namespace scope.  Needs a definition to be legal there; the
 * function is named __axiom<counter> (as in GPUVerify) and never called. */
#define __gmrace_axiom_concat(a, __gmr_b) a##__gmr_b
#define __gmrace_axiom_name(n) __gmrace_axiom_concat(__axiom, n)
#define __axiom(__gmr_expr)                                                    \
  static __device__ __inline__ __attribute__((unused)) bool                    \
  __gmrace_axiom_name(__COUNTER__)(void) {                                     \
    return (__gmr_expr);                                                       \
  }

#undef GMRACE_SPEC

#endif /* GMRACE_SPEC_H */
