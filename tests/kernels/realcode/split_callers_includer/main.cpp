// The program, in C++: it includes scan.cu, and its last call makes four blocks.
#include "scan.cu"

void run(float *d_out, const float *d_in);

int main() {
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4096 * sizeof(float));
  cudaMalloc(&d_out, 4096 * sizeof(float));
  warmUp(d_out, d_in);
  run(d_out, d_in);
  scanDevice(d_out, d_in, 2048);
  return 0;
}
