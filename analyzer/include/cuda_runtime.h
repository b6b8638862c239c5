/* gmrace stand-in for the CUDA toolkit's <cuda_runtime.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_CUDA_RUNTIME_H
#define GMRACE_PUBLIC_CUDA_RUNTIME_H
#include "gmrace_cuda.h"
#endif
