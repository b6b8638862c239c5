/* gmrace stand-in for the CUDA toolkit's <device_launch_parameters.h>.
 * All stand-in headers share one implementation; see gmrace_cuda.h. */
#ifndef GMRACE_PUBLIC_DEVICE_LAUNCH_PARAMETERS_H
#define GMRACE_PUBLIC_DEVICE_LAUNCH_PARAMETERS_H
#include "gmrace_cuda.h"
#endif
