/* gmrace stand-in for the CUDA toolkit's <texture_types.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_TEXTURE_TYPES_H
#define GMRACE_PUBLIC_TEXTURE_TYPES_H
#include "gmrace_cuda.h"
#endif
