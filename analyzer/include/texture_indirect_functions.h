/* gmrace stand-in for the CUDA toolkit's <texture_indirect_functions.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_TEXTURE_INDIRECT_FUNCTIONS_H
#define GMRACE_PUBLIC_TEXTURE_INDIRECT_FUNCTIONS_H
#include "gmrace_cuda.h"
#endif
