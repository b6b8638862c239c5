/* gmrace stand-in for the CUDA toolkit's <cuda.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_CUDA_H
#define GMRACE_PUBLIC_CUDA_H
#include "gmrace_cuda.h"
#endif
