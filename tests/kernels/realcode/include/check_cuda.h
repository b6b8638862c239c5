// A project's helper header, in the shape sample collections ship: the error-check macros
// exist only when the CUDA runtime's own headers were seen first.
#ifndef CHECK_CUDA_H
#define CHECK_CUDA_H
#include <stdio.h>
#include <stdlib.h>

#ifdef __DRIVER_TYPES_H__
static const char *errorName(cudaError_t e) { return cudaGetErrorName(e); }
#endif

#ifdef __cuda_cuda_h__
static const char *errorName(CUresult e) {
  const char *s = NULL;
  cuGetErrorName(e, &s);
  return s ? s : "unknown";
}
#endif

template <typename T>
void checkResult(T result, const char *what, const char *file, int line) {
  if (result) {
    fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what,
            errorName(result));
    exit(EXIT_FAILURE);
  }
}

#ifdef __DRIVER_TYPES_H__
#define CHECK_CUDA(call) checkResult((call), #call, __FILE__, __LINE__)
#define CHECK_LAUNCH(msg)                                                      \
  checkResult(cudaGetLastError(), msg, __FILE__, __LINE__)
#endif

inline int ceilDiv(int a, int b) { return (a + b - 1) / b; }
#endif
