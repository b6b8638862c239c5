/*
 * gmrace stand-in CUDA headers: atomic functions (atomicAdd, atomicCAS, ...).
 *
 * Internal part of gmrace_cuda.h.  Public names: <sm_20_atomic_functions.h>,
 * <device_atomic_functions.h>, ...
 *
 * In the toolkit these come from device_atomic_functions.hpp and friends,
 * which clang's wrapper includes from the toolkit.  Here they are thin inline
 * wrappers over the __iAtomicAdd-style helpers that clang defines in
 * __clang_cuda_device_functions.h (themselves __nvvm_atom_* builtins), so they
 * compile to real PTX atom.* instructions.  Every operation also has the
 * _block (CTA scope) and _system variants of CUDA 8+ (sm_60+).
 *
 * gmrace recognises atomics by the callee name (atomicAdd, atomicCAS_block,
 * ...); the bodies here are only for PTX generation.
 */
#ifndef GMRACE_ATOMICS_H
#define GMRACE_ATOMICS_H

#include "gmrace_device_functions.h"

#define GMRACE_ATOMIC static __inline__ __device__ __attribute__((always_inline))

/* NAME, NAME_block, NAME_system (__gmr_T *p, __gmr_T v) forwarding to HELPER{,_block,
 * _system}, with casts of the pointer and value to the helper's types. */
#define GMRACE_ATOMIC_BINARY(NAME, __gmr_T, HELPER, HT)                              \
  GMRACE_ATOMIC __gmr_T NAME(__gmr_T *address, __gmr_T val) {                                    \
    return (__gmr_T)HELPER((HT *)address, (HT)val);                                  \
  }                                                                            \
  GMRACE_ATOMIC __gmr_T NAME##_block(__gmr_T *address, __gmr_T val) {                            \
    return (__gmr_T)HELPER##_block((HT *)address, (HT)val);                          \
  }                                                                            \
  GMRACE_ATOMIC __gmr_T NAME##_system(__gmr_T *address, __gmr_T val) {                           \
    return (__gmr_T)HELPER##_system((HT *)address, (HT)val);                         \
  }

#define GMRACE_ATOMIC_CAS(__gmr_T, HELPER, HT)                                       \
  GMRACE_ATOMIC __gmr_T atomicCAS(__gmr_T *address, __gmr_T compare, __gmr_T val) {                    \
    return (__gmr_T)HELPER((HT *)address, (HT)compare, (HT)val);                     \
  }                                                                            \
  GMRACE_ATOMIC __gmr_T atomicCAS_block(__gmr_T *address, __gmr_T compare, __gmr_T val) {              \
    return (__gmr_T)HELPER##_block((HT *)address, (HT)compare, (HT)val);             \
  }                                                                            \
  GMRACE_ATOMIC __gmr_T atomicCAS_system(__gmr_T *address, __gmr_T compare, __gmr_T val) {             \
    return (__gmr_T)HELPER##_system((HT *)address, (HT)compare, (HT)val);            \
  }

/* ---- atomicAdd ---------------------------------------------------------- */
GMRACE_ATOMIC_BINARY(atomicAdd, int, __iAtomicAdd, int)
GMRACE_ATOMIC_BINARY(atomicAdd, unsigned int, __uAtomicAdd, unsigned int)
GMRACE_ATOMIC_BINARY(atomicAdd, unsigned long long, __ullAtomicAdd,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicAdd, float, __fAtomicAdd, float)
GMRACE_ATOMIC_BINARY(atomicAdd, double, __dAtomicAdd, double)

/* ---- atomicSub: defined by CUDA as atomicAdd of the negated value ------- */
GMRACE_ATOMIC int atomicSub(int *address, int val) {
  return __iAtomicAdd(address, -val);
}
GMRACE_ATOMIC int atomicSub_block(int *address, int val) {
  return __iAtomicAdd_block(address, -val);
}
GMRACE_ATOMIC int atomicSub_system(int *address, int val) {
  return __iAtomicAdd_system(address, -val);
}
GMRACE_ATOMIC unsigned int atomicSub(unsigned int *address, unsigned int val) {
  return __uAtomicAdd(address, (unsigned int)-(int)val);
}
GMRACE_ATOMIC unsigned int atomicSub_block(unsigned int *address,
                                           unsigned int val) {
  return __uAtomicAdd_block(address, (unsigned int)-(int)val);
}
GMRACE_ATOMIC unsigned int atomicSub_system(unsigned int *address,
                                            unsigned int val) {
  return __uAtomicAdd_system(address, (unsigned int)-(int)val);
}

/* ---- atomicExch --------------------------------------------------------- */
GMRACE_ATOMIC_BINARY(atomicExch, int, __iAtomicExch, int)
GMRACE_ATOMIC_BINARY(atomicExch, unsigned int, __uAtomicExch, unsigned int)
GMRACE_ATOMIC_BINARY(atomicExch, unsigned long long, __ullAtomicExch,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicExch, float, __fAtomicExch, float)

/* ---- atomicMin / atomicMax ---------------------------------------------- */
GMRACE_ATOMIC_BINARY(atomicMin, int, __iAtomicMin, int)
GMRACE_ATOMIC_BINARY(atomicMin, unsigned int, __uAtomicMin, unsigned int)
GMRACE_ATOMIC_BINARY(atomicMin, unsigned long long, __ullAtomicMin,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicMin, long long, __illAtomicMin, long long)
GMRACE_ATOMIC_BINARY(atomicMax, int, __iAtomicMax, int)
GMRACE_ATOMIC_BINARY(atomicMax, unsigned int, __uAtomicMax, unsigned int)
GMRACE_ATOMIC_BINARY(atomicMax, unsigned long long, __ullAtomicMax,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicMax, long long, __illAtomicMax, long long)

/* ---- atomicInc / atomicDec (wrapping at val) ---------------------------- */
GMRACE_ATOMIC_BINARY(atomicInc, unsigned int, __uAtomicInc, unsigned int)
GMRACE_ATOMIC_BINARY(atomicDec, unsigned int, __uAtomicDec, unsigned int)

/* ---- atomicAnd / atomicOr / atomicXor ----------------------------------- */
GMRACE_ATOMIC_BINARY(atomicAnd, int, __iAtomicAnd, int)
GMRACE_ATOMIC_BINARY(atomicAnd, unsigned int, __uAtomicAnd, unsigned int)
GMRACE_ATOMIC_BINARY(atomicAnd, unsigned long long, __ullAtomicAnd,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicOr, int, __iAtomicOr, int)
GMRACE_ATOMIC_BINARY(atomicOr, unsigned int, __uAtomicOr, unsigned int)
GMRACE_ATOMIC_BINARY(atomicOr, unsigned long long, __ullAtomicOr,
                     unsigned long long)
GMRACE_ATOMIC_BINARY(atomicXor, int, __iAtomicXor, int)
GMRACE_ATOMIC_BINARY(atomicXor, unsigned int, __uAtomicXor, unsigned int)
GMRACE_ATOMIC_BINARY(atomicXor, unsigned long long, __ullAtomicXor,
                     unsigned long long)

/* ---- atomicCAS ---------------------------------------------------------- */
/* clang has no __uAtomicCAS_block/_system helpers; the int ones do the same
 * 32-bit compare-and-swap. */
GMRACE_ATOMIC_CAS(int, __iAtomicCAS, int)
GMRACE_ATOMIC_CAS(unsigned int, __iAtomicCAS, int)
GMRACE_ATOMIC_CAS(unsigned long long, __ullAtomicCAS, unsigned long long)

/* 16-bit CAS (sm_70+).  clang 14 has no 16-bit CAS builtin and LLVM 14's
 * NVPTX back end cannot select a 16-bit cmpxchg, so this is a CAS loop on the
 * aligned 32-bit word containing the halfword (little-endian). */
#define GMRACE_ATOMIC_CAS16(NAME, HELPER)                                      \
  GMRACE_ATOMIC unsigned short int NAME(unsigned short int *address,           \
                                        unsigned short int compare,            \
                                        unsigned short int val) {              \
    int *word = (int *)((size_t)address & ~(size_t)3);                         \
    unsigned int shift = ((unsigned int)(size_t)address & 2u) * 8u;            \
    unsigned int mask = 0xffffu << shift;                                      \
    unsigned int old = *(volatile unsigned int *)word, assumed;                \
    do {                                                                       \
      unsigned short int current = (unsigned short int)((old & mask) >> shift); \
      if (current != compare)                                                  \
        return current;                                                        \
      assumed = old;                                                           \
      old = (unsigned int)HELPER(                                              \
          word, (int)assumed, (int)((assumed & ~mask) | ((unsigned int)val << shift))); \
    } while (old != assumed);                                                  \
    return compare;                                                            \
  }
GMRACE_ATOMIC_CAS16(atomicCAS, __iAtomicCAS)
GMRACE_ATOMIC_CAS16(atomicCAS_block, __iAtomicCAS_block)
GMRACE_ATOMIC_CAS16(atomicCAS_system, __iAtomicCAS_system)

#undef GMRACE_ATOMIC_CAS16
#undef GMRACE_ATOMIC_CAS
#undef GMRACE_ATOMIC_BINARY
#undef GMRACE_ATOMIC

#endif /* GMRACE_ATOMICS_H */
