// The program's host code, in C++: the one call of scanDevice.
#include <cuda_runtime.h>
#include "scan.h"

int main() {
  const int length = 2 * SCAN_BLOCK;
  float *d_in, *d_out;
  cudaMalloc(&d_in, length * sizeof(float));
  cudaMalloc(&d_out, length * sizeof(float));
  scanDevice(d_out, d_in, length);
  return 0;
}
