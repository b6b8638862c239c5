// The project's own header is in a directory its build names (`-I../common`): not found, it
// is read as empty, and the refusal says so first, before the errors it causes.
#include <cuda_runtime.h>
#include "common/tile_sizes.h"

__global__ void copy(float *out, const float *in) {
  __shared__ float tile[TILE];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

int main() {
  float *a, *b;
  copy<<<1, TILE>>>(a, b);
  return 0;
}
