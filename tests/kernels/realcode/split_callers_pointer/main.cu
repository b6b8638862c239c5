// The program calls the scan through a pointer set at namespace scope, on four blocks; the
// only call that names scanDevice, in driver.cpp, makes one block. The calls in sight are not
// all the calls.
#include <cuda_runtime.h>
#include "../split_callers/scan.h"

static void (*scan)(float *, const float *, int) = scanDevice;

void run(float *d_out, const float *d_in);

int main() {
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4096 * sizeof(float));
  cudaMalloc(&d_out, 4096 * sizeof(float));
  run(d_out, d_in);
  scan(d_out, d_in, 2048);
  return 0;
}
