// As guarded_launch.cu, but the gap is checked only in verbose mode: the launch is reached
// without the check, so a gap of 32 is possible and the two halves meet.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void mirror(int *slots, int gap) {
  slots[threadIdx.x] = 1; // RACE
  slots[threadIdx.x + gap] = 2; // RACE
}

int main(int argc, char **argv) {
  int gap = atoi(argv[1]);
  int verbose = argc > 2;
  if (verbose) {
    if (gap < 64)
      return 1;
  }
  int *d;
  cudaMalloc(&d, (64 + gap) * sizeof(int));
  mirror<<<1, 64>>>(d, gap);
  return 0;
}
