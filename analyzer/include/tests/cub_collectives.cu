// Every collective of the CUB stand-in instantiated, with user macros named like CUB's own
// template parameters (the stand-in's are prefixed and must not see them).
// check-flags: -DBLOCK_THREADS=999 -DITEMS_PER_THREAD=999 -DN=999
#include <cub/cub.cuh>
#include <cub/block/block_load.cuh>
#include <cub/util_type.cuh>

template <int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__global__ void tile(const int *in, int *out, float *f) {
  typedef cub::BlockLoad<int, THREADS, ITEMS, LOAD> Load;
  typedef cub::BlockStore<int, THREADS, ITEMS, STORE> Store;
  typedef cub::BlockScan<int, THREADS> Scan;
  typedef cub::BlockReduce<int, THREADS> Reduce;
  typedef cub::BlockExchange<int, THREADS, ITEMS> Exchange;
  typedef cub::BlockAdjacentDifference<int, THREADS> Adjacent;
  typedef cub::WarpReduce<float> WarpReduce;
  typedef cub::WarpScan<int> WarpScan;
  typedef cub::WarpExchange<int, ITEMS> WarpExchange;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
    typename Exchange::TempStorage exchange;
    typename Adjacent::TempStorage adjacent;
    typename WarpReduce::TempStorage warp_reduce[THREADS / 32];
    typename WarpScan::TempStorage warp_scan[THREADS / 32];
    typename WarpExchange::TempStorage warp_exchange[THREADS / 32];
  } temp;
  int items[ITEMS];
  int warp = threadIdx.x / 32;
  Load(temp.load).Load(in, items);
  __syncthreads();
  Load(temp.load).Load(in, items, 100);
  __syncthreads();
  Load(temp.load).Load(in, items, 100, -1);
  __syncthreads();
  int aggregate;
  Scan(temp.scan).ExclusiveSum(items, items, aggregate);
  __syncthreads();
  Scan(temp.scan).InclusiveScan(items, items, cub::Max());
  __syncthreads();
  int one;
  Scan(temp.scan).ExclusiveScan(items[0], one, 0, cub::Min(), aggregate);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(one, one);
  __syncthreads();
  int total = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  total += Reduce(temp.reduce).Reduce(one, cub::Max(), 77);
  __syncthreads();
  Exchange(temp.exchange).BlockedToStriped(items, items);
  __syncthreads();
  Exchange(temp.exchange).WarpStripedToBlocked(items, items);
  __syncthreads();
  Adjacent(temp.adjacent).SubtractLeft(items, items, cub::Difference());
  __syncthreads();
  Adjacent(temp.adjacent).SubtractRight(items, items, cub::Difference());
  __syncthreads();
  float s = WarpReduce(temp.warp_reduce[warp]).Sum(f[threadIdx.x]);
  __syncthreads();
  int w;
  WarpScan(temp.warp_scan[warp]).ExclusiveSum(one, w);
  __syncthreads();
  int warp_total;
  WarpScan(temp.warp_scan[warp]).InclusiveSum(one, w, warp_total);
  __syncthreads();
  WarpExchange(temp.warp_exchange[warp]).StripedToBlocked(items, items);
  __syncthreads();
  Store(temp.store).Store(out, items, 100);
  __syncthreads();
  Store(temp.store).Store(out, items);
  cub::StoreDirectStriped<cub::STORE_DEFAULT, THREADS>(threadIdx.x, out, items);
  cub::LoadDirectStriped<THREADS>(threadIdx.x, in, items);
  cub::KeyValuePair<int, float> best(threadIdx.x, s);
  best = cub::ArgMax()(best, cub::KeyValuePair<int, float>(0, 1.0f));
  unsigned bits = cub::Traits<float>::TwiddleIn(__float_as_uint(s));
  if (threadIdx.x == 0) out[0] = total + w + warp_total + best.key + (int)cub::Traits<float>::TwiddleOut(bits);
}

template __global__ void tile<128, 4, cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>(const int *, int *, float *);
template __global__ void tile<128, 4, cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED>(const int *, int *, float *);
template __global__ void tile<128, 4, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>(const int *, int *, float *);
template __global__ void tile<128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>(const int *, int *, float *);
