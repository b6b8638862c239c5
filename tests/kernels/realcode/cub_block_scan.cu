// CUB's block-wide load, scan and store, as CUB's own example writes them: a tile of 128x4
// items loaded through a warp transpose, scanned, and stored; the TempStorage of the three is
// one union, reused after a __syncthreads(). A second kernel leaves that barrier out: the
// scan's writes to the union race with the load's reads of it.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_scan.cuh>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool SYNCED>
__global__ void prefix_sum(const int *d_in, int *d_out) {
  typedef cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>
      BlockLoadT;
  typedef cub::BlockStore<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>
      BlockStoreT;
  typedef cub::BlockScan<int, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS> BlockScanT;
  __shared__ union {
    typename BlockLoadT::TempStorage load;
    typename BlockStoreT::TempStorage store;
    typename BlockScanT::TempStorage scan;
  } temp;
  int data[ITEMS_PER_THREAD];
  int offset = blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  BlockLoadT(temp.load).Load(d_in + offset, data); // RACE
  if (SYNCED)
    __syncthreads();
  int aggregate;
  BlockScanT(temp.scan).ExclusiveSum(data, data, aggregate); // RACE
  __syncthreads();
  BlockStoreT(temp.store).Store(d_out + offset, data);
}

int main() {
  int *in, *out;
  cudaMalloc(&in, 16 * 512 * sizeof(int));
  cudaMalloc(&out, 16 * 512 * sizeof(int));
  prefix_sum<128, 4, true><<<16, 128>>>(in, out);
  prefix_sum<128, 4, false><<<16, 128>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
