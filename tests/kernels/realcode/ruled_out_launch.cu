// Launches in branches a macro rules out, as projects ship a faster variant behind a switch.
// `transpose_tiled` is launched only there: that launch still says how the file launches it
// (32x8 blocks, each thread copying four rows), so it is analysed under it rather than under
// any block (where rows of threads overlap). `sum_all` too, and it races under that launch:
// the branch's condition, false, is not taken as a fact (that would prove anything). `copy` is
// also launched for real: only that launch counts.
#define USE_TILED 0
#define TILE 32
#define ROWS 8

__global__ void transpose_tiled(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_plain(float *out, const float *in, int n) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[x * n + y + j] = in[(y + j) * n + x];
}

__global__ void sum_all(float *total, const float *in) {
  total[0] += in[threadIdx.x]; // RACE
}

__global__ void copy(float *out, const float *in) {
  out[threadIdx.x] = in[threadIdx.x];
}

int main() {
  float *a, *b;
  const int n = 1024;
  dim3 block(TILE, ROWS);
  dim3 grid(n / TILE, n / TILE);
  if (USE_TILED) {
    transpose_tiled<<<grid, block>>>(b, a, n);
    sum_all<<<1, 64>>>(b, a);
    copy<<<1, 2048>>>(b, a);
  } else {
    transpose_plain<<<grid, block>>>(b, a, n);
    copy<<<1, 64>>>(b, a);
  }
  return 0;
}
