// The call that names scanDevice passes 512; the call through `scan` passes 2048, which no
// call names: the calls in sight are not all the calls.
#include <cuda_runtime.h>
#include "../split_callers/scan.h"

int main() {
  void (*scan)(float *, const float *, int) = scanDevice;
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4096 * sizeof(float));
  cudaMalloc(&d_out, 4096 * sizeof(float));
  scanDevice(d_out, d_in, 512);
  scan(d_out, d_in, 2048);
  return 0;
}
