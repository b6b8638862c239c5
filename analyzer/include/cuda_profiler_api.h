/* gmrace stand-in for the CUDA toolkit's <cuda_profiler_api.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_CUDA_PROFILER_API_H
#define GMRACE_PUBLIC_CUDA_PROFILER_API_H
#include "gmrace_cuda.h"
#endif
