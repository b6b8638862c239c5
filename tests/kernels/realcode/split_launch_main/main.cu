// The program's main file defines `fill` and launches it on 64 threads, where each thread has
// its own slot. more.cu, beside it and without a `main` of its own, launches `fill` too, on 256
// threads: threads x and x + 64 write one slot.
#include <cuda_runtime.h>

__global__ void fill(float *out) {
  out[threadIdx.x % 64] = threadIdx.x; // RACE under more.cu's launch
}

void more(float *d);

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  fill<<<1, 64>>>(d);
  more(d);
  return 0;
}
