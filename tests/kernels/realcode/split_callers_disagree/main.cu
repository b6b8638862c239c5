// Two calls of scanDevice with different lengths: the second makes a grid of four blocks,
// where the scan races.
#include <cuda_runtime.h>
#include "../split_callers/scan.h"

int main() {
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4096 * sizeof(float));
  cudaMalloc(&d_out, 4096 * sizeof(float));
  scanDevice(d_out, d_in, 512);
  scanDevice(d_out, d_in, 2048);
  return 0;
}
