// A file of a library that includes the header of its kernel templates and launches none of
// them (its host helpers only): nothing to analyse in this file, which is not an error.
#include <cuda_runtime.h>
#include "elementwise.cuh"

void *device_buffer(size_t bytes) {
  void *p = NULL;
  cudaMalloc(&p, bytes);
  return p;
}
