/* gmrace stand-in for the CUDA toolkit's <cudaTypedefs.h>: the driver API's
 * function pointer types, for code that fetches entry points with
 * cudaGetDriverEntryPoint (the tensor map encoder of Hopper-era kernels). */
#ifndef GMRACE_CUDA_TYPEDEFS_H
#define GMRACE_CUDA_TYPEDEFS_H
#include "cuda.h"

typedef CUresult(CUDAAPI *PFN_cuTensorMapEncodeTiled_v12000)(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);
#define PFN_cuTensorMapEncodeTiled PFN_cuTensorMapEncodeTiled_v12000
#endif
