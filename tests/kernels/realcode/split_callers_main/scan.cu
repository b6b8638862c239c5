// The program's main file defines scanDevice and calls it for one block (2 * SCAN_BLOCK
// elements): alone, the scan is right. extra.cu, beside it and without a `main` of its own,
// calls scanDevice too, with four blocks' worth: the program runs the scan on four blocks,
// where block b's second half writes the slot block b + 1 writes first.
#include <cuda_runtime.h>

#define SCAN_BLOCK 256

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
  d_out[idx + SCAN_BLOCK] = buf[tid + SCAN_BLOCK]; // RACE under extra.cu's call
}

void scanDevice(float *d_out, const float *d_in, int length) {
  int blocks = (length + 2 * SCAN_BLOCK - 1) / (2 * SCAN_BLOCK);
  scanBlock<<<blocks, SCAN_BLOCK>>>(d_out, d_in, length);
  cudaDeviceSynchronize();
}

void scanMore(float *d_out, const float *d_in);

int main() {
  const int length = 2 * SCAN_BLOCK;
  float *d_in, *d_out;
  cudaMalloc(&d_in, 4 * length * sizeof(float));
  cudaMalloc(&d_out, 4 * length * sizeof(float));
  scanDevice(d_out, d_in, length);
  scanMore(d_out, d_in);
  return 0;
}
