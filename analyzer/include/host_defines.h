/* gmrace stand-in for the CUDA toolkit's <host_defines.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_HOST_DEFINES_H
#define GMRACE_PUBLIC_HOST_DEFINES_H
#include "gmrace_cuda.h"
#endif
