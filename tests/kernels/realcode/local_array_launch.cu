// Work-group sizes kept in local arrays, as code ported from OpenCL does:
// `size_t lws[2]; lws[0] = 16; ...; dim3 threads(lws[0], lws[1]);`. An element folds to its one
// assignment in the function's body before the launch, or to its initializer. An element set
// under a branch, or an array passed to a function (which may change it), does not fold: that
// launch's block stays open.
#include <cuda_runtime.h>
#include <cstdlib>

#define TILE 16

__global__ void transpose(float *out, const float *in, int w) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[x * w + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_branch(float *out, const float *in, int w) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[x * w + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transpose_escaped(float *out, const float *in, int w) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[x * w + y] = tile[threadIdx.x][threadIdx.y];
}

void configure(size_t *sizes);

int main(int argc, char **argv) {
  const int w = 1024;
  float *a, *b;
  cudaMalloc(&a, w * w * sizeof(float));
  cudaMalloc(&b, w * w * sizeof(float));

  size_t lws[2];
  size_t gws[2] = {w, w};
  lws[0] = TILE;
  lws[1] = TILE;
  dim3 threads(lws[0], lws[1]);
  dim3 grid(gws[0] / lws[0], gws[1] / lws[1]);
  transpose<<<grid, threads>>>(b, a, w);

  size_t branch[2] = {TILE, TILE};
  if (argc > 1)
    branch[0] = atoi(argv[1]);
  transpose_branch<<<grid, dim3(branch[0], branch[1])>>>(b, a, w);

  size_t escaped[2] = {TILE, TILE};
  configure(escaped);
  transpose_escaped<<<grid, dim3(escaped[0], escaped[1])>>>(b, a, w);
  return 0;
}
