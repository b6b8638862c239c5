// Launch sizes computed by the host's small helper functions. `iDivUp` and the template
// `ceil_div` round up, `max_int(min_int(...), 32)` clamps: each kernel is written for the
// block its launch makes (`clamp` for at most 32 threads a block), so each is safe. `counted`
// takes its block from `threadsFor`, whose body counts in a loop: not folded, and under a
// block wider than 64 the race is real.
#include <cuda_runtime.h>

#define TPB 16

int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }

template <typename T> T ceil_div(T a, T b) { return (a + b - 1) / b; }

inline int max_int(int a, int b) { return a > b ? a : b; }
inline int min_int(int a, int b) { return a < b ? a : b; }

int threadsFor(int n) {
  int t = 1;
  while (t < n)
    t *= 2;
  return t;
}

__global__ void tiles(float *out) { out[blockIdx.x * 128 + threadIdx.x] = threadIdx.x; }

__global__ void clamp(float *out) { out[blockIdx.x * 32 + threadIdx.x] = threadIdx.x; }

__global__ void counted(float *out) {
  out[blockIdx.x * 64 + threadIdx.x % 64] = threadIdx.x; // RACE
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  const int n = 1000;
  tiles<<<iDivUp(n, 128), 128>>>(d);
  tiles<<<ceil_div(n, 128), ceil_div(256, 2)>>>(d);
  clamp<<<4, max_int(min_int(TPB, n), 32)>>>(d);
  counted<<<4, threadsFor(100)>>>(d);
  return 0;
}
