// A structure of fixed-size arrays in global memory, indexed by the global thread id with a
// bound the kernel checks against a parameter: `s0[tid]` and `s1[tid]` overlap only when
// `tid` runs past `s0`'s 1024 elements, which C++ leaves undefined. No witness relies on it,
// so both accesses are safe; the one real race (every thread adds to `total[0]`) stays.
#include <cuda_runtime.h>

#define N 1024

struct Columns {
  unsigned s0[N];
  unsigned s1[N];
};

__global__ void addColumns(Columns *dst, const Columns *src, unsigned n, unsigned *total) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    dst->s0[tid] += src->s0[tid];
    dst->s1[tid] += src->s1[tid];
    total[0] += dst->s1[tid]; // RACE
  }
}

void run(Columns *dst, const Columns *src, unsigned n, unsigned *total) {
  addColumns<<<(n + 255) / 256, 256>>>(dst, src, n, total);
}
