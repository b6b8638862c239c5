// A Smith-Waterman anti-diagonal step with CUDA 12's DPX intrinsics (__viaddmax_s32,
// __vimax3_s32_relu, __vibmax_s32): each thread scores one cell of a block-wide row from the
// previous row, kept in shared memory. The first kernel separates the reads of the previous
// row from the writes of the next with barriers; the second writes the row in place while
// its neighbours still read it: a race.
#define WIDTH 256

__global__ void score_rows(const int *match, int *best, bool *from_diag, int rows) {
  bool *path = from_diag + blockIdx.x * rows * WIDTH;
  __shared__ int prev[WIDTH + 1];
  int j = threadIdx.x + 1;
  prev[j] = 0;
  if (threadIdx.x == 0)
    prev[0] = 0;
  __syncthreads();
  int top = 0;
  for (int i = 0; i < rows; i++) {
    int diag = __viaddmax_s32(prev[j - 1], match[i * WIDTH + threadIdx.x], 0);
    int up = prev[j] - 2;
    bool d;
    int cell = __vibmax_s32(diag, up, &d);
    top = __vimax3_s32_relu(top, cell, 0);
    __syncthreads();
    prev[j] = cell;
    path[i * WIDTH + threadIdx.x] = d;
    __syncthreads();
  }
  best[blockIdx.x * WIDTH + threadIdx.x] = top;
}

__global__ void score_rows_in_place(const int *match, int *best, int rows) {
  __shared__ int prev[WIDTH + 1];
  int j = threadIdx.x + 1;
  prev[j] = 0;
  if (threadIdx.x == 0)
    prev[0] = 0;
  __syncthreads();
  for (int i = 0; i < rows; i++) {
    int cell = __viaddmax_s32_relu(prev[j - 1], match[i * WIDTH + threadIdx.x], prev[j] - 2); // RACE
    prev[j] = cell; // RACE
  }
  best[blockIdx.x * WIDTH + threadIdx.x] = prev[j];
}

int main() {
  const int rows = 64;
  int *match, *best;
  bool *from_diag;
  cudaMalloc(&match, rows * WIDTH * sizeof(int));
  cudaMalloc(&best, 8 * WIDTH * sizeof(int));
  cudaMalloc(&from_diag, 8 * rows * WIDTH * sizeof(bool));
  score_rows<<<8, WIDTH>>>(match, best, from_diag, rows);
  score_rows_in_place<<<8, WIDTH>>>(match, best, rows);
  cudaDeviceSynchronize();
  return 0;
}
