// <cuda/barrier>, <cuda/pipeline> and cooperative groups' asynchronous copies, in the shapes the
// CUDA samples use them (simpleAWBarrier, globalToShmemAsyncCopy).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <utility>
namespace cg = cooperative_groups;

__global__ void with_barrier(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[64];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(tile + threadIdx.x, in + threadIdx.x, sizeof(float), bar);
  auto token = bar.arrive();
  bar.wait(std::move(token));
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[63 - threadIdx.x];
}

__global__ void with_pipeline(float *out, const float *in) {
  __shared__ float tile[2][64];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  pipe.producer_acquire();
  cuda::memcpy_async(block, tile[0], in, sizeof(float) * 64, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = tile[0][threadIdx.x];
  pipe.consumer_release();
  cuda::pipeline<cuda::thread_scope_thread> own = cuda::make_pipeline();
  cuda::memcpy_async(tile[1] + threadIdx.x, in + threadIdx.x, cuda::aligned_size_t<4>(4), own);
  cuda::pipeline_consumer_wait_prior<0>(own);
}

__global__ void with_groups(float *out, const float *in) {
  __shared__ float tile[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 64);
  cg::wait(block);
  cg::wait_prior<0>(block);
  out[threadIdx.x] = tile[threadIdx.x];
}
