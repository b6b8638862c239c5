// Launching functions whose address the program takes: a call through the pointer passes what
// no call naming the function shows. `runWrap`'s named call passes width 128 (no race in 128
// threads), the call through `p` passes 64 (threads x and x + 64 write one slot). The helper
// `launchOne` is named with `fill` and 128 threads, and called through a global pointer with
// 256. `Tiles::run` overrides a virtual method: named with 64 threads, it is also called
// through the base class with 256. No launch takes the named calls' values, and the races
// stay.
#include <cuda_runtime.h>

__global__ void wrap(float *out, int width) {
  out[threadIdx.x % width] = threadIdx.x; // RACE through p
}

__global__ void fill(float *out) {
  out[threadIdx.x % 128] = threadIdx.x; // RACE through launcher
}

__global__ void tiles(float *out) {
  out[threadIdx.x % 64] = threadIdx.x; // RACE through the base class
}

struct Launcher {
  virtual void run(float *d, int threads) {}
};

struct Tiles : Launcher {
  void run(float *d, int threads) override { tiles<<<1, threads>>>(d); }
};

static void runWrap(float *d, int width) { wrap<<<1, 128>>>(d, width); }

static void launchOne(void (*kernel)(float *), float *d, int threads) {
  kernel<<<1, threads>>>(d);
}

static void (*launcher)(void (*)(float *), float *, int) = launchOne;

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  void (*p)(float *, int) = runWrap;
  p(d, 64);
  runWrap(d, 128);
  launchOne(fill, d, 128);
  launcher(fill, d, 256);
  Tiles t;
  Launcher *base = &t;
  base->run(d, 256);
  t.run(d, 64);
  return 0;
}
