// The program's host code, in C++: a call of scanDevice in a template, whose arguments have a
// type the template depends on (clang resolves it only in the instantiation), passes four
// blocks' worth; the plain call passes one block's.
#include <cuda_runtime.h>
#include "../split_callers/scan.h"

template <class T> void scanMore(T *d_out, const T *d_in) {
  scanDevice(d_out, d_in, 8 * SCAN_BLOCK);
}

int main() {
  const int length = 2 * SCAN_BLOCK;
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4 * length * sizeof(float));
  cudaMalloc(&d_out, 4 * length * sizeof(float));
  scanDevice(d_out, d_in, length);
  scanMore(d_out, d_in);
  return 0;
}
