/* gmrace stand-in for the CUDA toolkit's <cudaTypedefs.h>: the driver API's
 * function pointer types, for code that fetches entry points with
 * cudaGetDriverEntryPoint (the tensor map encoder of Hopper-era kernels). */
#ifndef GMRACE_CUDA_TYPEDEFS_H
#define GMRACE_CUDA_TYPEDEFS_H
#include "cuda.h"

/* The pointer type of the declaration in gmrace_driver_api.h, not a second copy of it. */
typedef decltype(&cuTensorMapEncodeTiled) PFN_cuTensorMapEncodeTiled_v12000;
#define PFN_cuTensorMapEncodeTiled PFN_cuTensorMapEncodeTiled_v12000
#endif
