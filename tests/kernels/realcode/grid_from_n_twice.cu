// As grid_from_n.cu, with twice the blocks the slots are for: blocks b and b + n / 64 stamp
// the same slot.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void stamp(int *slots, int n) {
  int chunks = n / 64;
  if (threadIdx.x == 0)
    slots[blockIdx.x % chunks] = blockIdx.x; // RACE
}

int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  int blocks = 2 * (n / 64);
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  stamp<<<blocks, 64>>>(d, n);
  return 0;
}
