/*
 * gmrace_toolkit_prelude.h -- force-included by gmrace into every CUDA file
 * read with a real toolkit's headers (clang's CUDA wrapper has included the
 * toolkit's cuda_runtime.h before it).
 *
 * This directory is the only one of gmrace's on the search path then, ahead
 * of the toolkit's include directory: what it holds is read instead of the
 * toolkit's headers of the same name.  Besides this prelude that is
 * <cuda/atomic>, <cuda/barrier>, <cuda/pipeline>, <cuda_fp16.h>, <cuda_bf16.h>, <cuda_fp8.h>
 * and <mma.h>, the stand-ins' (by forwarding): the toolkit implements them in inline PTX,
 * which gmrace cannot see through.
 *
 * 1. GPUVerify's specification language (gmrace_spec.h) and what gmrace reads
 *    a kernel launch in device code as (gmrace_device_launch.h).
 * 2. The runtime API's launch templates as nvcc reads them.  The toolkit
 *    declares `template <class T> cudaLaunchKernel(const T *func, ...)`;
 *    nvcc deduces T from a kernel's name, clang does not (a function type
 *    cannot be const-qualified), so `cudaLaunchKernel(k, grid, block, args)`
 *    would be an error in host code and its launch would be lost.  These
 *    overloads take the kernel as nvcc does; for an object pointer the
 *    toolkit's more specialised `const T *` template still wins.
 * 3. nvcc's identification as nvcc defines it: __CUDACC__ and __NVCC__ as 1,
 *    __CUDACC_VER_MAJOR__/_MINOR__ from the toolkit's CUDART_VERSION.  After
 *    the toolkit's runtime headers, which clang's wrapper has read as clang's;
 *    CUB and Thrust included by the file take their nvcc paths, as under nvcc
 *    (tests/toolkit.rs reads the CUB and Thrust corpus files both ways).
 * 4. No `__noinline__` macro.  The toolkit's host_defines.h defines it as
 *    `__attribute__((noinline))`, which turns libstdc++'s own
 *    `__attribute__((__noinline__))` (<memory>'s shared_ptr) into an error;
 *    clang reads `__noinline__` as a keyword in CUDA, with the same meaning.
 * 5. CUDA 12.9's `__block_size__` for older toolkits, ignored as the
 *    stand-ins ignore it (gmrace_host_defines.h).
 */
#ifndef GMRACE_TOOLKIT_PRELUDE_H
#define GMRACE_TOOLKIT_PRELUDE_H

#include "../gmrace_spec.h"
#include "../gmrace_device_launch.h"

/* nvcc defines __CUDACC__ as 1, and projects test it with `#if __CUDACC__`;
 * clang's CUDA wrapper leaves it defined empty.  Projects put their
 * `__host__ __device__` helpers under `#ifdef __NVCC__`. */
#undef __CUDACC__
#define __CUDACC__ 1
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDART_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

#undef __noinline__
#ifndef __block_size__
#define __block_size__(...)
#endif

#if defined(__cplusplus) && defined(__CUDA_RUNTIME_H__)
template <class __gmr_T>
static __inline__ __host__ cudaError_t
cudaLaunchKernel(__gmr_T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}
template <class __gmr_T>
static __inline__ __host__ cudaError_t
cudaLaunchCooperativeKernel(__gmr_T *func, dim3 gridDim, dim3 blockDim,
                            void **args, size_t sharedMem = 0,
                            cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}
#endif

#endif /* GMRACE_TOOLKIT_PRELUDE_H */
