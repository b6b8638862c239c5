// Each block works in its own slice of one buffer, a stride computed from a parameter apart
// (`blockIdx.x * stride`). A witness in which that product wraps 2^32 needs a grid that covers
// 2^32 elements of the buffer, which no program launches: `copies` has no race, and `main`'s
// `n >= 100` leaves no negative `n` either. `overlapping` writes one element past its slice,
// where the next block writes its first: a race whenever the grid has two blocks.
#include <stdlib.h>

__global__ void copies(int n, const float *src, int *glob) {
  int *buf = &glob[blockIdx.x * ((3 * n + 2 + 31) / 32 * 32)];
  float *px = (float *)(&buf[n]);
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    px[i] = src[i];
  __syncthreads();
  if (threadIdx.x == 0)
    px[n] = px[0];
}

__global__ void overlapping(int n, float *out) {
  float *mine = &out[blockIdx.x * n];
  for (int i = threadIdx.x; i <= n; i += blockDim.x)
    mine[i] = i; // RACE
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 1;
  int n = atoi(argv[1]);
  if (n < 100)
    return 1;
  int restarts = atoi(argv[2]);
  int threads = atoi(argv[3]);
  float *src, *out;
  int *glob;
  cudaMalloc(&src, n * sizeof(float));
  cudaMalloc(&glob, restarts * ((3 * n + 2 + 31) / 32 * 32) * sizeof(int));
  cudaMalloc(&out, (restarts * n + 1) * sizeof(float));
  copies<<<restarts, threads>>>(n, src, glob);
  overlapping<<<restarts, threads>>>(n, out);
  return 0;
}
