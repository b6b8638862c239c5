// Host code written against libraries this machine lacks (NPP, cuSPARSE, NVTX): the headers
// are read as empty, host code that needs them is not read, and the kernel that needs them is
// listed as not analysed; the other kernel is analysed.
#include <cuda_runtime.h>
#include <npp.h>
#include <cusparse.h>
#include <nvToolsExt.h>

__global__ void scaleSpectrum(float2 *data, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i].x *= s;
    data[i].y *= s;
  }
}

__global__ void conjugate(Npp32fc *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i].im = -data[i].im;
}

void profiledStep(float2 *d, int n) {
  nvtxRangePushA("scale");
  scaleSpectrum<<<n / 128, 128>>>(d, n, 1.0f / n);
  nvtxRangePop();
}

int main(int argc, char **argv) {
  const int N = 4096;
  Npp32fc *spectrum = nppsMalloc_32fc(N);
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  float2 *d;
  cudaMalloc(&d, N * sizeof(float2));
  scaleSpectrum<<<N / 128, 128>>>(d, N, 1.0f / N);
  return 0;
}
