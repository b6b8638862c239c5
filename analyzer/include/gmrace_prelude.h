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
 *    written for GPUVerify parse (gmrace_spec.h, which a real toolkit's
 *    headers get alone).
 */
#ifndef GMRACE_PRELUDE_H
#define GMRACE_PRELUDE_H

#include "gmrace_cuda.h"

/* ======================================================================== */
/* The rest of GPUVerify's CUDA environment                                 */
/* ======================================================================== */

/* GPUVerify's environment made these visible without an #include (and
 * kernels rely on it): the CUDART_* constants of <math_constants.h> (every
 * one #ifndef-guarded) and cuRAND's device API (curandState, curand_init,
 * curand_uniform, ...).  Vector arithmetic (float3 + float3, dot, clamp, ...)
 * comes with gmrace_cuda.h; see gmrace_vector_ops.h. */
#include "math_constants.h"
#include "curand_kernel.h"

/* Legacy warp votes without underscores (CUDA 1.x names of __all/__any).
 * Device-only declarations with no body: gmrace recognises the calls by
 * name.  Kernels that declare their own `unsigned int all(unsigned int)`
 * just add an overload; host code's std::all_of/any_of are unaffected. */
__device__ int all(int __gmr_predicate);
__device__ int any(int __gmr_predicate);

#include "gmrace_spec.h"
#include "gmrace_device_launch.h"

#endif /* GMRACE_PRELUDE_H */
