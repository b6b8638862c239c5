// Blocks a launching function receives as `dim3` parameters. Each kernel writes a 16x16 tile
// per block, one slot per thread when the block is 16 wide: a wider block's thread (16, 0)
// writes the slot of (0, 1). `runPlain`'s only call passes 16x16 blocks, and so does the call
// of the helper that takes the kernel `rowsHelper`: both are safe (the helper's other call
// launches `rowsWide` on 32x8 blocks, which races). `runTwice` is called with 16x16 and with
// 32x8 blocks (a launch per call: safe under the first, and the race is real under 32x8);
// `runDoubled` doubles the width it receives (the parameter changes: not taken, and its
// 32-wide block races too).
#include <cuda_runtime.h>

__global__ void rowsPlain(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x;
}

__global__ void rowsHelper(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x;
}

__global__ void rowsWide(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x; // RACE
}

__global__ void rowsTwice(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x; // RACE
}

__global__ void rowsDoubled(float *out) {
  out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = threadIdx.x; // RACE
}

static void runPlain(float *d, dim3 grid, dim3 block) { rowsPlain<<<grid, block>>>(d); }

template <typename Kernel>
void launch(Kernel kernel, dim3 grid, const dim3 &block, float *d) {
  kernel<<<grid, block>>>(d);
}

static void runTwice(float *d, dim3 block) { rowsTwice<<<4, block>>>(d); }

static void runDoubled(float *d, dim3 block) {
  block.x *= 2;
  rowsDoubled<<<4, block>>>(d);
}

int main() {
  float *d;
  cudaMalloc(&d, 4096 * sizeof(float));
  runPlain(d, dim3(4), dim3(16, 16));
  dim3 tile(16, 16);
  launch(rowsHelper, 8, tile, d);
  launch(rowsWide, 8, dim3(32, 8), d);
  runTwice(d, tile);
  runTwice(d, dim3(32, 8));
  runDoubled(d, tile);
  return 0;
}
