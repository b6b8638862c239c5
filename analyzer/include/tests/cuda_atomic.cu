// libcu++'s cuda::atomic_ref and cuda::atomic in every scope, with every order.
#include <cuda/atomic>

__global__ void atomic_ref_kernel(int *i, unsigned int *u, float *f) {
  cuda::atomic_ref<int, cuda::thread_scope_block> b(*i);
  cuda::atomic_ref<unsigned int, cuda::thread_scope_device> d(*u);
  cuda::atomic_ref<float> s(*f);
  int r = b.fetch_add(1) + b.fetch_sub(1, cuda::memory_order_relaxed);
  r += b.fetch_min(0) + b.fetch_max(0) + b.fetch_and(1) + b.fetch_or(2) + b.fetch_xor(3);
  r += (int)d.fetch_add(1u, cuda::memory_order_acq_rel) + (int)d.exchange(2u);
  unsigned int expected = 2u;
  r += d.compare_exchange_strong(expected, 3u, cuda::std::memory_order_acquire) ? 1 : 0;
  r += d.compare_exchange_weak(expected, 4u) ? 1 : 0;
  b.store(r, cuda::memory_order_release);
  r += b.load(cuda::memory_order_acquire) + (int)d.load();
  s.store(s.load() + s.fetch_add(1.0f));
  __shared__ cuda::atomic<int, cuda::thread_scope_block> counter;
  r += counter.fetch_add(1) + counter.load();
  counter.store(r);
}
