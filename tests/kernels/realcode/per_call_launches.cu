// A launching function called with different values makes one launch per call. `runTiles`
// is called with 64 and 128 threads, and each block writes its own 128 slots: safe under
// both, though a block of 256 (which no call passes) would race. `runStrided` passes the
// stride its calls give (1 and 2): no stride 0, so no two threads share a slot.
// `runWide` is called with 64 and 256 threads: the second call's launch races, and its
// witness names that call.
#include <cuda_runtime.h>

__global__ void tiles(float *out) { out[blockIdx.x * 128 + threadIdx.x] = threadIdx.x; }

__global__ void strided(float *out, int stride) { out[threadIdx.x * stride] = threadIdx.x; }

__global__ void wide(float *out) {
  out[blockIdx.x * 128 + threadIdx.x % 128] = threadIdx.x; // RACE
}

static void runTiles(float *d, int threads) { tiles<<<4, threads>>>(d); }

static void runStrided(float *d, int stride) { strided<<<1, 64>>>(d, stride); }

static void runWide(float *d, int threads) { wide<<<4, threads>>>(d); }

int main() {
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  runTiles(d, 64);
  runTiles(d, 128);
  runStrided(d, 1);
  runStrided(d, 2);
  runWide(d, 64);
  runWide(d, 256);
  return 0;
}
