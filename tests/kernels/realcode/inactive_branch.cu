// A kernel in a preprocessor branch this parse does not take (the project's Makefile defines
// USE_GPU) is listed as not analysed with the branch, rather than vanishing; one under
// `#if 0` is code its authors turned off and is not listed; of an `#ifdef`/`#else` pair the
// kernel read is analysed and its twin not listed.
#include <cuda_runtime.h>

#ifdef USE_GPU
__global__ void
filter(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] > 0;
}
#endif

#if 0
__global__ void retired(int *out) { out[0] = 1; }
#endif

#ifdef DOUBLE_PRECISION
__global__ void axpy(double *y, const double *x, double a) { y[threadIdx.x] += a * x[threadIdx.x]; }
#else
__global__ void axpy(float *y, const float *x, float a) { y[threadIdx.x] += a * x[threadIdx.x]; }
#endif

int main() {
  float *x, *y;
  cudaMalloc(&x, 256 * sizeof(float));
  cudaMalloc(&y, 256 * sizeof(float));
  axpy<<<1, 256>>>(y, x, 2.0f);
  return 0;
}
