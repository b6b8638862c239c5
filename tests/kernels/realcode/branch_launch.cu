// Launches under branches, as matrixMul's: the block is block_size x block_size, and each
// instantiation is launched only in the branch where block_size is its tile, so every launch
// fits its tile (`run` is called with both sizes, so its parameter has no single value). A
// launch in a branch the function's constants rule out never happens: the
// 8x8 launch of tile<4> below is dead, and the live one is 4x4.
#include <cuda_runtime.h>

template <int T> __global__ void tile(float *d) {
  __shared__ float s[T * T];
  int i = threadIdx.y * T + threadIdx.x;
  s[i] = d[i];
  __syncthreads();
  d[i] = s[T * T - 1 - i];
}

void run(float *d, int block_size) {
  dim3 threads(block_size, block_size);
  if (block_size == 16) {
    tile<16><<<1, threads>>>(d);
  } else if (block_size == 8) {
    tile<8><<<1, threads>>>(d);
  }
}

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  run(d, 16);
  run(d, 8);
  const int mode = 1;
  if (mode == 2)
    tile<4><<<1, dim3(8, 8)>>>(d);
  tile<4><<<1, dim3(4, 4)>>>(d);
  return 0;
}
