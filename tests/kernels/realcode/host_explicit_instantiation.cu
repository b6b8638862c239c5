// A library file: kernel templates launched from a host function template that the file
// explicitly instantiates for float and double with deduced template arguments, and no main.
// Each instantiation's kernels are analysed; the accumulation into `total[0]` races.
#include <cuda_runtime.h>
#include <vector>

template <typename T> __global__ void scaleBy(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

template <typename T> __global__ void accumulate(const T *x, T *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    total[0] += x[i]; // RACE
}

template <typename T> std::vector<T> normalise(T *x, T *total, int n) {
  accumulate<T><<<(n + 127) / 128, 128>>>(x, total, n);
  scaleBy<T><<<(n + 127) / 128, 128>>>(x, (T)2, n);
  return std::vector<T>(1);
}

template std::vector<float> normalise(float *x, float *total, int n);
template std::vector<double> normalise(double *x, double *total, int n);
