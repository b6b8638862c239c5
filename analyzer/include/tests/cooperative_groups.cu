// Cooperative groups: block, tiles, coalesced groups, grid sync, reduce.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ int tile_sum(cg::thread_block_tile<32> tile, int v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  return v;
}

__global__ void cg_kernel(int *data, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[256];
  unsigned r = block.thread_rank();
  s[r] = data[blockIdx.x * block.size() + r];
  block.sync();
  cg::sync(block);

  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = tile_sum(warp, s[r]);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);
  v += quad.shfl(v, 0) + quad.shfl_xor(v, 1) + quad.shfl_up(v, 1);
  v += cg::reduce(warp, v, cg::plus<int>());
  quad.sync();
  if (warp.thread_rank() == 0)
    atomicAdd(out, v + (int)warp.meta_group_rank() + warp.any(v > 0) +
                       (int)warp.ballot(v > 0));

  cg::thread_group g = cg::tiled_partition(block, 16);
  g.sync();
  cg::thread_group whole = block;
  whole.sync();

  cg::coalesced_group active = cg::coalesced_threads();
  if (active.thread_rank() == 0)
    out[1] = (int)active.size();
  active.sync();

  dim3 gi = block.group_index();
  dim3 ti = block.thread_index();
  out[2] = (int)(gi.x + ti.x);
}

__global__ void grid_kernel(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();
  data[0] += (int)grid.size() + (int)grid.num_blocks() + grid.is_valid();
}

int main() {
  int *d;
  cudaMalloc(&d, 1024 * sizeof(int));
  cg_kernel<<<4, 256>>>(d, d);
  void *args[] = {&d};
  cudaLaunchCooperativeKernel(grid_kernel, dim3(4), dim3(256), args);
  cudaDeviceSynchronize();
  return 0;
}

// binary_partition and a reduction over the coalesced group it gives (binaryPartitionCG).
__global__ void odd_even_sums(const int *in, int *out) {
  namespace cg = cooperative_groups;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  cg::coalesced_group part = cg::binary_partition(tile, v & 1);
  int sum = cg::reduce(part, v, cg::plus<int>());
  if (part.thread_rank() == 0)
    out[threadIdx.x] = sum;
}
