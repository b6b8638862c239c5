/* gmrace stand-in for the CUDA toolkit's <sm_35_intrinsics.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_SM_35_INTRINSICS_H
#define GMRACE_PUBLIC_SM_35_INTRINSICS_H
#include "gmrace_cuda.h"
#endif
