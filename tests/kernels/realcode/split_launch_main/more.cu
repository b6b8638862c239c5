// Part of main.cu's program: it launches main.cu's `fill` on 256 threads.
#include <cuda_runtime.h>

__global__ void fill(float *out);

void more(float *d) { fill<<<1, 256>>>(d); }
