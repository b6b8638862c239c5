// A block size read from a stream (`in >> threads`, a member operator taking `int &`) is not
// its initializer: folded to 128 the kernel would be race-free; with more threads it races.
#include <cuda_runtime.h>

struct Reader {
  Reader &operator>>(int &value);
};

__global__ void rotate(float *data) {
  __shared__ float buf[128];
  buf[threadIdx.x % 128] = data[threadIdx.x]; // RACE
  __syncthreads();
  data[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}

int main() {
  int threads = 128;
  Reader in;
  in >> threads;
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  rotate<<<1, threads>>>(d);
  return 0;
}
