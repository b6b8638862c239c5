// Thrust as projects use it: tuples, complex numbers, zip iterators, random engines and the
// sequential algorithms in device code; device_vector and the algorithms with policies in host
// code.
#include <thrust/complex.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/random.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/tuple.h>

#define T float
#define N 64

struct by_second {
  __host__ __device__ bool operator()(const thrust::tuple<int, int> &a,
                                      const thrust::tuple<int, int> &b) const {
    return thrust::get<1>(a) < thrust::get<1>(b);
  }
};

__global__ void device_side(int *keys, int *vals, thrust::complex<T> *z, float *out) {
  int base = threadIdx.x * 8;
  thrust::sort(thrust::seq, keys + base, keys + base + 8);
  thrust::sort_by_key(thrust::seq, keys + base, keys + base + 8, vals + base, thrust::greater<int>());
  auto zb = thrust::make_zip_iterator(thrust::make_tuple(keys + base, vals + base));
  thrust::sort(thrust::seq, zb, zb + 8, by_second());
  thrust::tuple<int, float> t = thrust::make_tuple(1, 2.0f);
  int a;
  float b;
  thrust::tie(a, b) = t;
  thrust::complex<T> w = z[threadIdx.x] * thrust::complex<T>(0, 1) + 1.0f;
  out[threadIdx.x] = thrust::abs(w) + thrust::norm(thrust::conj(w)) + thrust::exp(w).real() + a + b;
  thrust::default_random_engine rng(threadIdx.x);
  rng.discard(3);
  thrust::uniform_real_distribution<float> u(0.0f, 1.0f);
  thrust::uniform_int_distribution<int> d(0, 9);
  out[threadIdx.x] += u(rng) + d(rng) +
                      thrust::reduce(thrust::seq, vals + base, vals + base + 8, 0, thrust::plus<int>());
  int sums[8];
  thrust::inclusive_scan(thrust::seq, vals + base, vals + base + 8, sums);
  thrust::counting_iterator<int> c(0);
  out[threadIdx.x] += sums[7] + c[5] + thrust::get<0>(*zb);
}

int main() {
  thrust::host_vector<int> h(N);
  thrust::sequence(h.begin(), h.end());
  thrust::device_vector<int> d = h;
  thrust::sort(thrust::device, d.begin(), d.end(), thrust::greater<int>());
  int s = thrust::reduce(d.begin(), d.end());
  thrust::exclusive_scan(thrust::cuda::par.on(0), d.begin(), d.end(), d.begin());
  thrust::device_vector<int> v(N, 1);
  thrust::sort_by_key(d.begin(), d.end(), v.begin());
  auto e = thrust::unique_by_key(d.begin(), d.end(), v.begin());
  int *raw = thrust::raw_pointer_cast(d.data());
  thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);
  thrust::fill(p, p + N, 0);
  thrust::complex<T> *z;
  float *out;
  device_side<<<1, N / 8>>>(raw, thrust::raw_pointer_cast(v.data()), z, out);
  return s + (int)(e.first - d.begin()) + (int)thrust::count(p, p + N, 0);
}

__global__ void searches(const int *sorted, int *out) {
  out[threadIdx.x] = (int)(thrust::lower_bound(thrust::seq, sorted, sorted + N, (int)threadIdx.x) - sorted) +
                     (int)(thrust::upper_bound(thrust::seq, sorted, sorted + N, (int)threadIdx.x) - sorted) +
                     thrust::binary_search(thrust::seq, sorted, sorted + N, 3) +
                     *thrust::max_element(thrust::seq, sorted, sorted + N);
}
