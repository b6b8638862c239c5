// A block height set in branches (the shape of a convolution library's launcher): four rows,
// or eight where the filters and the colours per group allow it. The launch for three colours
// per group only ever has four rows (3 % 8 is not 0), whichever branch ran, so its kernel,
// which races from a fifth row on, is safe there; the launch for sixteen may have eight.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void four_rows(float *out) {
  __shared__ float tile[4][32];
  tile[threadIdx.y % 4][threadIdx.x] = out[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[3 - threadIdx.y % 4][threadIdx.x];
}

__global__ void four_rows_too(float *out) {
  __shared__ float tile[4][32];
  tile[threadIdx.y % 4][threadIdx.x] = out[threadIdx.y * 32 + threadIdx.x]; // RACE
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[3 - threadIdx.y % 4][threadIdx.x];
}

int main(int argc, char **argv) {
  int channels = atoi(argv[1]), filters = atoi(argv[2]), groups = atoi(argv[3]);
  int colors = channels / groups;
  int rows = 4;
  if (channels <= 3) {
    // colour images keep four rows
  } else {
    rows = filters % 128 == 0 && colors % 8 == 0 ? 8 : 4;
  }
  dim3 threads(32, rows);
  float *d;
  cudaMalloc(&d, 8 * 32 * sizeof(float));
  if (colors == 3)
    four_rows<<<1, threads>>>(d);
  else if (colors == 16)
    four_rows_too<<<1, threads>>>(d);
  return 0;
}
