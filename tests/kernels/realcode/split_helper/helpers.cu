// A launch helper other files call too: `mine` passes `fill` with 64 threads (one slot each),
// main.cu passes it with 256 (threads x and x + 64 write one slot). The helper has external
// linkage and this file no `main`: its calls here are not all, and bind nothing.
#include <cuda_runtime.h>

__global__ void fill(float *out) {
  out[threadIdx.x % 64] = threadIdx.x; // RACE under main.cu's call
}

void launchIt(void (*kernel)(float *), float *d, int threads) { kernel<<<1, threads>>>(d); }

void mine(float *d) { launchIt(fill, d, 64); }
