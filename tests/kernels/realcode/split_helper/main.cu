// The program's main file: it launches helpers.cu's `fill` through the helper on 256 threads.
#include <cuda_runtime.h>

__global__ void fill(float *out);
void launchIt(void (*kernel)(float *), float *d, int threads);
void mine(float *d);

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  mine(d);
  launchIt(fill, d, 256);
  return 0;
}
