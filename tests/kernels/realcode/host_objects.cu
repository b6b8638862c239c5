// Sizes kept in a host object. `Params` builds its fields in its constructor's initializers
// (`k` from the call, `N` from a default argument); `Tile` is an aggregate. Each kernel is
// written for the block its program launches: `square` for k x k threads, `rows` for
// `Tile::threads` threads. `tuned` reads a field a method may change (`retune`): its block
// stays open, and the race under a block wider than 64 is real. `Scaled` multiplies in its
// constructor's body: not folded, and `scaled` races under the 64 threads it gets. `halves`
// takes fields set one by one. `spread`'s stride is the field `{.blocks = 2}` leaves zero; a
// list with designators is not folded, so its race is conditional on the stride.
#include <cuda_runtime.h>

struct Params {
  unsigned n, k, N;
  int pad = 3;
  Params(unsigned n = 32, unsigned k = 8, unsigned N = 8) : n(n), k(k), N(N - 1) {}
};

struct Tile {
  int threads;
  int blocks;
  void retune(int t) { threads = t; }
};

struct Scaled {
  int t;
  Scaled(int x) : t(x) { t *= 4; }
};

__global__ void scaled(float *out) {
  out[blockIdx.x * 16 + threadIdx.x] = threadIdx.x; // RACE
}

__global__ void halves(float *out) { out[blockIdx.x * 32 + threadIdx.x] = threadIdx.x; }

__global__ void spread(float *out, int stride) {
  out[threadIdx.x * stride] = threadIdx.x; // RACE
}

__global__ void square(float *out) {
  out[blockIdx.x * 64 + threadIdx.y * 8 + threadIdx.x] = threadIdx.x;
}

__global__ void rows(float *out, int extra) {
  out[blockIdx.x * 128 + threadIdx.x + extra] = threadIdx.x;
}

__global__ void tuned(float *out) {
  out[blockIdx.x * 64 + threadIdx.x % 64] = threadIdx.x; // RACE
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  Params params(19, 8);
  const unsigned k = params.k;
  dim3 threads(k, k);
  square<<<params.N, threads>>>(d);
  Tile tile = {128, 4};
  rows<<<tile.blocks, tile.threads>>>(d, params.pad - 3);
  Tile other{64};
  other.retune(256);
  tuned<<<4, other.threads>>>(d);
  Scaled s(16);
  scaled<<<4, s.t>>>(d);
  Tile manual;
  manual.threads = 32;
  manual.blocks = 2;
  halves<<<manual.blocks, manual.threads>>>(d);
  Tile named = {.blocks = 2};
  spread<<<1, 32>>>(d, named.threads);
  return 0;
}
