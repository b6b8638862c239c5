// The gaps come from the command line, and main refuses a gap below 64 (an early return),
// asserts the same of the second and launches the third kernel only when its gap is that large: each of the 64 threads writes its slot and
// the slot `gap` further on, so the two halves never meet. Without the checks a gap of 32 would
// make thread t's second write and thread t + 32's first one the same slot.
#include <assert.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void mirror(int *slots, int gap) {
  slots[threadIdx.x] = 1;
  slots[threadIdx.x + gap] = 2;
}

__global__ void mirrorAsserted(int *slots, int gap) {
  slots[threadIdx.x] = 1;
  slots[threadIdx.x + gap] = 2;
}

__global__ void mirrorInBranch(int *slots, int gap) {
  slots[threadIdx.x] = 1;
  slots[threadIdx.x + gap] = 2;
}

int main(int argc, char **argv) {
  int gap = atoi(argv[1]);
  int other = atoi(argv[2]);
  int third = atoi(argv[3]);
  if (gap < 64) {
    fprintf(stderr, "the gap must be at least 64\n");
    return 1;
  }
  assert(other >= 64);
  int *d;
  cudaMalloc(&d, (64 + gap + other) * sizeof(int));
  mirror<<<1, 64>>>(d, gap);
  mirrorAsserted<<<1, 64>>>(d + gap, other);
  if (third > 63)
    mirrorInBranch<<<1, 64>>>(d, third);
  cudaDeviceSynchronize();
  return 0;
}
