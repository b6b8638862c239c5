/*
 * gmrace stand-in CUDA headers: execution-space qualifiers and helper macros.
 *
 * Internal part of gmrace_cuda.h; do not include directly (include
 * <cuda_runtime.h> or any other public header instead).
 *
 * These headers replace the CUDA toolkit when gmrace parses .cu files with
 *   clang -x cuda --cuda-device-only -nocudainc -nocudalib ...
 * With -nocudainc clang does not force-include __clang_cuda_runtime_wrapper.h,
 * so nothing CUDA-specific is predefined except __CUDA__, __CUDA_ARCH__,
 * __NVPTX__ and the clang builtins (e.g. __syncthreads, __nvvm_*).
 */
#ifndef GMRACE_HOST_DEFINES_H
#define GMRACE_HOST_DEFINES_H

#if !defined(__CUDA__) || !defined(__clang__)
#error "gmrace CUDA headers are meant for clang -x cuda only"
#endif

/* Claim a CUDA 11.8 toolkit.  clang's own device headers
 * (__clang_cuda_device_functions.h, __clang_cuda_intrinsics.h) select their
 * modern (sync-variant) code paths from this macro; user code uses it too. */
#ifndef CUDA_VERSION
#define CUDA_VERSION 11080
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 11080
#endif
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION 11080
#endif

/* The include guards of what nvcc force-includes (cuda_runtime.h and the
 * headers it pulls in): projects test them, e.g. helper_cuda.h defines
 * checkCudaErrors only under #ifdef __DRIVER_TYPES_H__. <cuda.h> (the driver
 * API, not force-included) defines __cuda_cuda_h__ itself. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __DRIVER_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __HOST_CONFIG_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __DEVICE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __TEXTURE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __BUILTIN_TYPES_H__

/* nvcc and clang's runtime wrapper both define __CUDACC__ before any standard
 * header is seen; libstdc++ relies on it to avoid __float128 in CUDA mode.
 * nvcc defines it as 1, and projects test it with `#if __CUDACC__`. */
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
/* nvcc's own identification, also defined as nvcc does (CUDA 11.8, as above):
 * projects put `__host__ __device__` (and whole device paths) under
 * `#ifdef __NVCC__`, and versioned code under __CUDACC_VER_MAJOR__.  With a
 * toolkit, toolkit/gmrace_toolkit_prelude.h defines them alike. */
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 11
#define __CUDACC_VER_MINOR__ 8
#define __CUDACC_VER_BUILD__ 89
#endif

/* ---- execution-space / memory-space qualifiers (clang's CUDA attributes) */
#ifndef __host__
#define __host__ __attribute__((host))
#endif
#ifndef __device__
#define __device__ __attribute__((device))
#endif
#ifndef __global__
#define __global__ __attribute__((global))
#endif
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#ifndef __constant__
#define __constant__ __attribute__((constant))
#endif
/* clang 14 only accepts __attribute__((managed)) for HIP, so a managed
 * variable is a __device__ variable here.  The annotate attribute keeps the
 * fact visible in the AST (AnnotateAttr "__managed__"). */
#ifndef __managed__
#define __managed__ __attribute__((device)) __attribute__((annotate("__managed__")))
#endif
#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
/* Deliberately empty: libstdc++ 12 spells __attribute__((__noinline__)) in
 * <bits/shared_ptr_base.h>; a non-empty macro would break that, while
 * __attribute__(()) is harmless.  Inlining does not matter for analysis. */
#ifndef __noinline__
#define __noinline__
#endif
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __builtin_align__
#define __builtin_align__(n) __align__(n)
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#endif
/* Not supported by clang 14; accepted and ignored. */
#ifndef __grid_constant__
#define __grid_constant__
#endif
/* Thread block clusters (sm_90): clang 19 ignores the toolkit's
 * `cluster_dims` attribute, and so do the stand-ins.  Blocks of a cluster
 * reach each other's shared memory only through the cluster API and PTX,
 * which a kernel's analysis does not read through (unknown, not safe). */
#ifndef __cluster_dims__
#define __cluster_dims__(...)
#endif
/* CUDA 12.9's block size a kernel must be launched with: a launch of another
 * fails.  Ignored, the analysis assumes no more than the launches say (no
 * wrong `safe` can come of it, at worst a race of a launch that would fail). */
#ifndef __block_size__
#define __block_size__(...)
#endif
/* Markers used inside NVIDIA's headers; some user code copies them. */
#ifndef __device_builtin__
#define __device_builtin__
#endif
#ifndef __cudart_builtin__
#define __cudart_builtin__
#endif
#ifndef __CUDA_ALIGN__
#define __CUDA_ALIGN__(n) __align__(n)
#endif
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDAAPI
#define CUDAAPI
#endif

/* __restrict__ is a keyword in clang already. */

#endif /* GMRACE_HOST_DEFINES_H */
