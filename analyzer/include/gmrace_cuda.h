/*
 * gmrace stand-in CUDA headers: the shared core.
 *
 * Every public stand-in header (<cuda_runtime.h>, <cuda.h>, <vector_types.h>,
 * <device_functions.h>, ...) just includes this file, so any of them gives
 * the whole CUDA surface and any include order works.  The parts are
 * included in a fixed order because clang's device headers depend on each
 * other (see gmrace_device_functions.h).
 *
 * gmrace force-includes gmrace_prelude.h (which includes this file) before
 * the user's code, like nvcc force-includes cuda_runtime.h.  That matters:
 * clang's device math overloads must be declared before <cmath> is seen.
 */
#ifndef GMRACE_CUDA_H
#define GMRACE_CUDA_H

#include "gmrace_host_defines.h"     /* __device__, __align__, CUDA_VERSION  */
#include "gmrace_vector_types.h"     /* int2, float4, dim3, make_int2 ...    */
#include "gmrace_device_functions.h" /* threadIdx, math, intrinsics, printf  */
#include "gmrace_atomics.h"          /* atomicAdd, atomicCAS, ...            */
#include "gmrace_math.h"             /* min/max overloads                    */
#include "gmrace_vector_ops.h"       /* float3 + float3, dot, clamp, ...     */
#include "gmrace_runtime_api.h"      /* cudaMalloc, cudaMemcpy, launches ... */
#include "gmrace_driver_api.h"       /* CUresult, cuInit, ...                */
#include "gmrace_textures.h"         /* texture<>, tex1Dfetch, ...           */

#endif /* GMRACE_CUDA_H */
