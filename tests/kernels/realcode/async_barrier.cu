// libcu++'s split barrier and pipelines, and asynchronous copies into shared memory, as the CUDA
// samples use them (simpleAWBarrier, globalToShmemAsyncCopy). gmrace does not model a
// cuda::barrier's phases or a copy's completion: what they order is unknown, never a race
// (no witness replays past them), and nothing a copy may still be writing is proved safe. What
// no barrier or copy touches keeps its verdict: `partial`'s global accesses are safe, and
// `racy_before` races before any barrier runs. `__shared__ alignas(16)`, which clang
// refuses and nvcc reads, is read.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <utility>
namespace cg = cooperative_groups;

__global__ void partial(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float sums[64];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  sums[threadIdx.x] = in[threadIdx.x] * 2.0f;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[threadIdx.x] = sums[63 - threadIdx.x];
}

__global__ void racy_before(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float slot[32];
  slot[threadIdx.x / 2] = threadIdx.x; // RACE
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = slot[threadIdx.x / 2];
}

__global__ void staged(float *out, const float *in) {
  __shared__ alignas(16) float tile[2][64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  pipe.producer_acquire();
  cuda::memcpy_async(block, tile[0], in, sizeof(float) * 64, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = tile[0][threadIdx.x];
  pipe.consumer_release();
}

__global__ void grouped(float *out, const float *in) {
  __shared__ float tile[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 64);
  cg::wait(block);
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 64 * sizeof(float));
  cudaMalloc(&b, 64 * sizeof(float));
  partial<<<1, 64>>>(b, a);
  racy_before<<<1, 64>>>(b);
  staged<<<1, 64>>>(b, a);
  grouped<<<1, 64>>>(b, a);
  return 0;
}
