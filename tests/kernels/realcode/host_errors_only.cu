// Host code calling a helper this file never declares (it lives in another file of the
// project): a warning; the kernel is analysed under the launch main states.
#include <cuda_runtime.h>

__global__ void reverse(int *d) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = d[t];
  __syncthreads();
  d[t] = s[63 - t];
}

int main() {
  int *d = allocateDeviceBuffer(64);
  reverse<<<1, 64>>>(d);
  reportTiming("reverse");
  return 0;
}
