/* gmrace stand-in for <cublas_v2.h>: the API of <cublas_api.h>. */
#ifndef GMRACE_CUBLAS_V2_H
#define GMRACE_CUBLAS_V2_H
#include "cublas_api.h"
#endif
