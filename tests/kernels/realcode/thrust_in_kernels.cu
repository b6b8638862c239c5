// Thrust as kernels use it: sequential algorithms (thrust::seq) on each thread's segment of a
// shared tile, tuples and zip iterators, complex numbers; and as host code uses it: device_vector,
// sequence, sort and raw_pointer_cast around the launches, which fold only when that host code
// reads (without the stand-in it did not compile, and the launches were not known).
#include <thrust/complex.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#define SEG 8
#define THREADS 32

__global__ void sort_segments(const int *in, int *out) {
  __shared__ int tile[SEG * THREADS];
  for (int i = 0; i < SEG; i++)
    tile[threadIdx.x * SEG + i] = in[blockIdx.x * SEG * THREADS + threadIdx.x * SEG + i];
  thrust::sort(thrust::seq, tile + threadIdx.x * SEG, tile + (threadIdx.x + 1) * SEG);
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = tile[(threadIdx.x + 1) % THREADS * SEG];
}

// Each thread fills its own segment; in the second kernel each segment runs one element into
// the next thread's, and the fills race.
__global__ void fill_segments(int *out) {
  __shared__ int tile[SEG * THREADS + 1];
  thrust::fill(thrust::seq, tile + threadIdx.x * SEG, tile + (threadIdx.x + 1) * SEG, 7);
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = tile[threadIdx.x * SEG];
}

__global__ void fill_overlapping(int *out) {
  __shared__ int tile[SEG * THREADS + 1];
  thrust::fill(thrust::seq, tile + threadIdx.x * SEG, tile + (threadIdx.x + 1) * SEG + 1, 7); // RACE
  __syncthreads();
  out[blockIdx.x * THREADS + threadIdx.x] = tile[threadIdx.x * SEG];
}

__global__ void rotate(const float *re, const float *im, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  thrust::complex<float> z(re[i], im[i]);
  thrust::tuple<float, float> t = thrust::make_tuple(thrust::abs(z), (z * z).imag());
  out[thrust::get<0>(t) > 1.0f ? i : i] = thrust::get<1>(t);
}

int main() {
  const int n = 4 * SEG * THREADS;
  thrust::device_vector<int> keys(n);
  thrust::sequence(thrust::device, keys.begin(), keys.end(), n, -1);
  thrust::sort(keys.begin(), keys.end());
  thrust::device_vector<int> out(n);
  thrust::device_vector<float> f(n);
  int *k = thrust::raw_pointer_cast(keys.data());
  int *o = thrust::raw_pointer_cast(out.data());
  float *p = thrust::raw_pointer_cast(f.data());
  sort_segments<<<4, THREADS>>>(k, o);
  fill_segments<<<4, THREADS>>>(o);
  fill_overlapping<<<4, THREADS>>>(o);
  rotate<<<n / 128, 128>>>(p, p, p + n, n);
  return 0;
}
