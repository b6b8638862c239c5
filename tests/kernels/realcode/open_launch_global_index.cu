// Kernels of a file with no launch (a library's, or a program's whose `main` is elsewhere), so
// both the grid and the block are open. Each thread's global index `blockIdx.x * blockDim.x +
// threadIdx.x` is then a product of two unknowns, which the solver cannot take apart within its
// work limit; what the launch limits imply of the product (the grid's span fits a signed 32-bit
// int, a later block starts a block's width further on) proves the first three race-free. The
// last two race for every launch of two blocks or more: a neighbour's element, and the next
// block's first elements.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale(int n, float *y) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n)
    y[i] = 2 * y[i];
}

__global__ void add_halves(int n, float *y) {
  int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  if (i + blockDim.x < n)
    y[i] += y[i + blockDim.x];
}

__global__ void shift_left(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    y[i] = y[i + 1]; // RACE
}

__global__ void spill_forward(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + blockDim.x < n)
    y[i + blockDim.x] = y[i] + 1; // RACE
}
