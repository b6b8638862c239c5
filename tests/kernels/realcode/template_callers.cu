// Launching functions a template calls with arguments of a type the template depends on:
// clang leaves those calls unresolved in the template, and its instantiations call the
// function with their own values. `runWrap`'s named call passes width 128 (no race in 128
// threads), `go`'s instantiation passes 64; `Tiles::run`'s named call passes 64 threads (no
// race), `goTiles`'s passes 256. Neither launch takes the named call's values, and the races
// stay.
#include <cuda_runtime.h>

__global__ void wrap(float *out, int width) {
  out[threadIdx.x % width] = threadIdx.x; // RACE through go
}

__global__ void tiles(float *out) {
  out[threadIdx.x % 64] = threadIdx.x; // RACE through goTiles
}

static void runWrap(float *d, int width) { wrap<<<1, 128>>>(d, width); }

template <class T> void go(T *d) { runWrap(d, 64); }

struct Tiles {
  void run(float *d, int threads) { tiles<<<1, threads>>>(d); }
};

template <class L> void goTiles(L &launcher, float *d) { launcher.run(d, 256); }

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  go(d);
  runWrap(d, 128);
  Tiles t;
  goTiles(t, d);
  t.run(d, 64);
  return 0;
}
