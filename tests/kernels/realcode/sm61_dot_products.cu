// The sm_61 byte dot products on packed vectors (`char4`, `uchar4`, `short2`), as the toolkit
// declares them: the kernels are analysed, not refused for want of an overload. A toolkit's
// `__dp4a` is inline PTX (`dp4a.s32.s32`), read as an unknown value with its operands' reads:
// the same verdicts (tests/toolkit.rs).
#include <sm_61_intrinsics.h>

__global__ void dot4(const char *x, const char *y, int *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const char4 *qx = (const char4 *)x;
  const char4 *qy = (const char4 *)y;
  if (i < n)
    z[i] = __dp4a(qy[i], qx[i], 0);
}

// Every thread of a block adds its products into the block's slot without an atomic.
__global__ void dot2_sum(const short2 *x, const uchar4 *y, unsigned *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ushort2 h = make_ushort2(x[i].x, x[i].y);
  sum[blockIdx.x] = __dp2a_lo(h, y[i], sum[blockIdx.x]); // RACE
}

int main() {
  char *x, *y;
  int *z;
  short2 *h;
  uchar4 *u;
  unsigned *s;
  dot4<<<32, 256>>>(x, y, z, 32 * 256);
  dot2_sum<<<32, 256>>>(h, u, s);
}
