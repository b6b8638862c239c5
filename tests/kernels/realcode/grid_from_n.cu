// The grid is computed from n, which the kernel also gets: n / 64 blocks for n elements read
// from the command line. Block b stamps slot b % (n / 64), so no two blocks share a slot; with
// the grid and n unrelated, two blocks would.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void stamp(int *slots, int n) {
  int chunks = n / 64;
  if (threadIdx.x == 0)
    slots[blockIdx.x % chunks] = blockIdx.x;
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  stamp<<<n / 64, 64>>>(d, n);
  return 0;
}
