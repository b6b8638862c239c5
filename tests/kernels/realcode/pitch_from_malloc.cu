// A pitch the host gets from cudaMallocPitch: no launch site fixes it. Rows overlap only for a
// pitch narrower than a row, so the race is conditional (a warning, left to `gmrace run`),
// not definite.
#include <cuda_runtime.h>

__global__ void shiftRows(float *out, const float *in, size_t pitch, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width)
    out[y * (pitch / sizeof(float)) + x] = in[y * width + x]; // RACE
}

int main() {
  const int width = 512, height = 512;
  float *in, *out;
  size_t pitch;
  cudaMalloc(&in, width * height * sizeof(float));
  cudaMallocPitch((void **)&out, &pitch, width * sizeof(float), height);
  dim3 block(16, 16);
  dim3 grid(width / block.x, height / block.y);
  shiftRows<<<grid, block>>>(out, in, pitch, width);
  return 0;
}
