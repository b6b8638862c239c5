// A one-block scan behind a host function: scanDevice sizes the grid from `length`, and the
// kernel is right for one block only (block b's second half writes the slot block b + 1 writes
// first). The program's only call, in main.cpp, passes 2 * SCAN_BLOCK: one block, no race.
#include <cuda_runtime.h>
#include "scan.h"

__global__ void scanBlock(float *d_out, const float *d_in, int length) {
  __shared__ float buf[2 * SCAN_BLOCK];
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int tid = threadIdx.x;
  buf[tid] = d_in[idx];
  buf[tid + SCAN_BLOCK] = d_in[idx + SCAN_BLOCK];
  for (int offset = 1; offset < 2 * SCAN_BLOCK; offset <<= 1) {
    __syncthreads();
    int a = offset * (2 * tid + 1) - 1;
    int b = offset * (2 * tid + 2) - 1;
    if (b < 2 * SCAN_BLOCK)
      buf[b] += buf[a];
  }
  __syncthreads();
  d_out[idx] = buf[tid];
  d_out[idx + SCAN_BLOCK] = buf[tid + SCAN_BLOCK]; // RACE when the grid has two blocks
}

void scanDevice(float *d_out, const float *d_in, int length) {
  int blocks = (length + 2 * SCAN_BLOCK - 1) / (2 * SCAN_BLOCK);
  scanBlock<<<blocks, SCAN_BLOCK>>>(d_out, d_in, length);
  cudaDeviceSynchronize();
}
