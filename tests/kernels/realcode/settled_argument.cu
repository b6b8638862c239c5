// A size the program reads from its command line, then uses for both the grid and an argument:
// after the parsing loop it no longer changes, so the grid is `n / 256` blocks of the `n` the
// kernel gets, no index reaches `n` and none wraps. The second kernel's grid is computed before
// the size is read, so its `n` may be smaller and two threads meet in a wrapped slot.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

__global__ void fill(int *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[i >= n ? i - n : i] = i;
}

__global__ void refill(int *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  slots[i >= n ? i - n : i] = i; // RACE
}

int main(int argc, char **argv) {
  int n = 1 << 20;
  dim3 early(n / 256);
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "-n") == 0)
      n = atoi(argv[i + 1]);
  int *slots;
  cudaMalloc(&slots, n * sizeof(int));
  dim3 grid(n / 256);
  fill<<<grid, 256>>>(slots, n);
  refill<<<early, 256>>>(slots, n);
  return 0;
}
