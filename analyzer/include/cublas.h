/* gmrace stand-in for <cublas.h>, the legacy API: the names of <cublas_api.h>. */
#ifndef GMRACE_CUBLAS_H
#define GMRACE_CUBLAS_H
#include "cublas_api.h"
#endif
