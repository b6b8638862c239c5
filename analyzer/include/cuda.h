/* gmrace stand-in for the CUDA toolkit's <cuda.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h.
 * GPUVerify's own cuda.h also makes Cooperative Groups visible, and GPUVerify
 * kernels rely on `#include <cuda.h>` + `using namespace cooperative_groups`,
 * so this one does too. */
#ifndef GMRACE_PUBLIC_CUDA_H
#define GMRACE_PUBLIC_CUDA_H
#define __cuda_cuda_h__
#include "gmrace_cuda.h"
#include "cooperative_groups.h"
#endif
