// A launch configuration set member by member, as Rodinia's programs do: `dim3 threads;`
// then `threads.x = NUMBER_THREADS;` in the function's body before any read. The block folds
// to 512x1x1, so `ei = bx * NUMBER_THREADS + tx` is one element per thread: safe. A member
// assigned only under a branch (`blocks.x`) does not fold.
#include <cuda_runtime.h>

#define NUMBER_THREADS 512

__global__ void extract(long n, float *image) {
  int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
  if (ei < n)
    image[ei] = image[ei] / 255.0f;
}

int main() {
  long ne = 1 << 20;
  float *image;
  cudaMalloc(&image, ne * sizeof(float));
  dim3 threads;
  dim3 blocks;
  threads.x = NUMBER_THREADS;
  threads.y = 1;
  int blocks_x = ne / threads.x;
  if (ne % threads.x != 0)
    blocks_x = blocks_x + 1;
  if (blocks_x > 0)
    blocks.x = blocks_x;
  blocks.y = 1;
  extract<<<blocks, threads>>>(ne, image);
  return 0;
}
