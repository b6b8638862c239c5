// A kernel written for 8x8 tiles, launched with 16x8 blocks: its read after the barrier runs
// past the tile (undefined), but the race before it has happened by then and is reported.
#include <cuda_runtime.h>
#define TILE 8

__global__ void transposeTile(float *out, const float *in) {
  __shared__ float tile[TILE * TILE];
  int at = blockIdx.x * 128 + threadIdx.y * 16 + threadIdx.x;
  tile[threadIdx.y * TILE + threadIdx.x] = in[at]; // RACE
  __syncthreads();
  out[at] = tile[threadIdx.x * TILE + threadIdx.y];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4 * 128 * sizeof(float));
  cudaMalloc(&out, 4 * 128 * sizeof(float));
  transposeTile<<<4, dim3(16, TILE)>>>(out, in);
  cudaDeviceSynchronize();
  return 0;
}
