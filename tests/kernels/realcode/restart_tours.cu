// Random-restart 2-opt: each block improves its own tour in its own slice of a global buffer,
// with shared tiles, a block-wide minimum and a parallel reversal. Its pairs spend the
// kernel's solver budget, so the report shows how far a fixed budget gets; that must be the
// same in every run (cli/tests/determinism.rs).
#include <stdlib.h>

#define TILE 64

__device__ float gap(const float *x, const float *y, int a, int b) {
  float dx = x[a] - x[b], dy = y[a] - y[b];
  return sqrtf(dx * dx + dy * dy);
}

__global__ void improve(int n, const float *__restrict xs, const float *__restrict ys,
                        int *__restrict work, int *__restrict moves, int *__restrict best) {
  __shared__ float tx[TILE];
  __shared__ float ty[TILE];
  __shared__ int tb[TILE];
  extern __shared__ int red[];
  int *cost = &work[blockIdx.x * ((3 * n + 2 + 31) / 32 * 32)];
  float *x = (float *)(&cost[n]);
  float *y = &x[n + 1];
  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = xs[i];
  for (int i = threadIdx.x; i < n; i += blockDim.x) y[i] = ys[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = blockIdx.x;
    for (int i = 1; i < n; i++) {
      s = s * 1664525u + 1013904223u;
      int j = 1 + (int)(s % (unsigned)(n - 1));
      float t = x[i]; x[i] = x[j]; x[j] = t;
      t = y[i]; y[i] = y[j]; y[j] = t;
    }
    x[n] = x[0];
    y[n] = y[0];
  }
  __syncthreads();
  int change;
  do {
    for (int i = threadIdx.x; i < n; i += blockDim.x) cost[i] = -(int)gap(x, y, i, i + 1);
    __syncthreads();
    change = 0;
    int mi = 1, mj = 0;
    for (int ii = 0; ii < n - 2; ii += blockDim.x) {
      int i = ii + threadIdx.x;
      float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
      if (i < n - 2) {
        change -= cost[i];
        x0 = x[i]; y0 = y[i]; x1 = x[i + 1]; y1 = y[i + 1];
      }
      for (int jj = n - 1; jj >= ii + 2; jj -= TILE) {
        int lo = jj - TILE + 1;
        for (int k = threadIdx.x; k < TILE; k += blockDim.x) {
          if (k + lo >= ii + 2) {
            tx[k] = x[k + lo];
            ty[k] = y[k + lo];
            tb[k] = cost[k + lo];
          }
        }
        __syncthreads();
        int lower = ii + 2;
        if (lower < lo) lower = lo;
        for (int j = jj; j >= lower; j--) {
          int jm = j - lo;
          float d = sqrtf((x0 - tx[jm]) * (x0 - tx[jm]) + (y0 - ty[jm]) * (y0 - ty[jm]));
          int c = tb[jm] + (int)d;
          if (c < change) { change = c; mi = i; mj = j; }
        }
        __syncthreads();
      }
      if (i < n - 2) change += cost[i];
    }
    __syncthreads();
    int mine = red[threadIdx.x] = change;
    if (threadIdx.x == 0) atomicAdd(moves, 1);
    __syncthreads();
    int w = blockDim.x;
    do {
      int h = (w + 1) / 2;
      if (threadIdx.x + h < w) {
        int o = red[threadIdx.x + h];
        if (mine > o) mine = o;
        red[threadIdx.x] = mine;
      }
      w = h;
      __syncthreads();
    } while (w > 1);
    if (change == red[0]) red[1] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == red[1]) {
      red[2] = mi + 1;
      red[3] = mj;
    }
    __syncthreads();
    change = red[0];
    mi = red[2];
    int sum = red[3] + mi;
    for (int i = threadIdx.x; i + i < sum; i += blockDim.x) {
      if (mi <= i) {
        int j = sum - i;
        float t = x[i]; x[i] = x[j]; x[j] = t;
        t = y[i]; y[i] = y[j]; y[j] = t;
      }
    }
    __syncthreads();
  } while (change < 0);
  int total = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) total += (int)gap(x, y, i, i + 1);
  atomicMin(best, total);
}


int main(int argc, char **argv) {
  if (argc < 3) return 1;
  int n = atoi(argv[1]);
  if (n < 100) return 1;
  int restarts = atoi(argv[2]);
  int threads = atoi(argv[3]);
  float *xs, *ys;
  int *work, *moves, *best;
  cudaMalloc(&xs, n * sizeof(float));
  cudaMalloc(&ys, n * sizeof(float));
  cudaMalloc(&work, restarts * ((3 * n + 2 + 31) / 32 * 32) * sizeof(int));
  cudaMalloc(&moves, sizeof(int));
  cudaMalloc(&best, sizeof(int));
  improve<<<restarts, threads, sizeof(int) * threads>>>(n, xs, ys, work, moves, best);
  cudaDeviceSynchronize();
  return 0;
}
