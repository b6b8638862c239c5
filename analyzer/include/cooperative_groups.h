/*
 * gmrace stand-in for <cooperative_groups.h>: a minimal implementation of the
 * Cooperative Groups API on top of the CUDA intrinsics.
 *
 * Provided (namespace cooperative_groups):
 *   thread_group                 type-erased group (block, tile or coalesced)
 *   thread_block                 this_thread_block()
 *   grid_group                   this_grid()
 *   thread_block_tile<__gmr_N>         tiled_partition<__gmr_N>(parent)
 *   coalesced_group              coalesced_threads(), binary_partition(g, pred)
 *   thread_group                 tiled_partition(parent, size)
 *   sync(g), synchronize(g)      free-function barriers
 *   reduce(g, v, op) over tiles and coalesced groups, plus/less/greater/bit_and/bit_or/bit_xor
 *                                (cooperative_groups/reduce.h)
 *   memcpy_async(g, dst, src, bytes), wait(g), wait_prior<N>(g)   declared only
 *                                (cooperative_groups/memcpy_async.h)
 *
 * Every group type defines its own sync(), so a barrier shows up in the AST
 * as a CXXMemberCallExpr to e.g. cooperative_groups::thread_block::sync.
 * grid_group::sync() cannot be implemented without the cooperative-launch
 * runtime; it calls the undefined extern "C" __device__ function
 * __gmrace_cg_grid_sync(), which stays an unresolved .extern in PTX.
 */
#ifndef GMRACE_COOPERATIVE_GROUPS_H
#define GMRACE_COOPERATIVE_GROUPS_H

#include "gmrace_cuda.h"

extern "C" __device__ void __gmrace_cg_grid_sync(void);

namespace cooperative_groups {

namespace __gmrace_detail {
static __device__ __forceinline__ unsigned int block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
static __device__ __forceinline__ unsigned int block_size() {
  return blockDim.x * blockDim.y * blockDim.z;
}
/* A warp is 32 consecutive threads of the block's linear order, so the lane is
 * that order modulo 32: said with threadIdx, which every interpreter of gmrace
 * models, rather than with the %laneid register. */
static __device__ __forceinline__ unsigned int lane_id() {
  return block_rank() & 31u;
}
/* The lane of the member of rank `rank` among the set bits of `mask` (what
 * __fns(mask, 0, rank + 1) gives), as a loop every interpreter follows. */
static __device__ __forceinline__ unsigned int nth_lane(unsigned int mask,
                                                        unsigned int rank) {
  for (unsigned int lane = 0; lane < 32; lane++) {
    if (mask & (1u << lane)) {
      if (rank == 0)
        return lane;
      rank--;
    }
  }
  return 0xffffffffu;
}
/* The lanes below this one (%lanemask_lt). */
static __device__ __forceinline__ unsigned int lanes_below() {
  return (1u << lane_id()) - 1u;
}
/* Mask of the lanes belonging to the same __gmr_Size-wide tile as this lane. */
static __device__ __forceinline__ unsigned int tile_mask(unsigned int size) {
  if (size >= 32)
    return 0xffffffffu;
  unsigned int base = (lane_id() / size) * size;
  return ((1u << size) - 1u) << base;
}
} // namespace __gmrace_detail

/* Type-erased group; what thread_group g = tiled_partition(block, 4) yields. */
class thread_group {
public:
  enum __kind_t { __block_kind, __tile_kind, __coalesced_kind, __grid_kind };

  __device__ thread_group(__kind_t kind, unsigned int size, unsigned int mask)
      : __kind(kind), __size(size), __mask(mask) {}

  __device__ void sync() const {
    if (__kind == __block_kind)
      __syncthreads();
    else if (__kind == __grid_kind)
      __gmrace_cg_grid_sync();
    else
      __syncwarp(__mask);
  }
  __device__ unsigned long long size() const { return __size; }
  __device__ unsigned long long num_threads() const { return __size; }
  __device__ unsigned long long thread_rank() const {
    if (__kind == __block_kind)
      return __gmrace_detail::block_rank();
    if (__kind == __tile_kind)
      return __gmrace_detail::block_rank() % __size;
    return __popc(__mask & __gmrace_detail::lanes_below());
  }
  __device__ bool is_valid() const { return true; }

protected:
  __kind_t __kind;
  unsigned int __size;
  unsigned int __mask;
};

/* All threads of the current thread block. */
class thread_block : public thread_group {
public:
  __device__ thread_block()
      : thread_group(__block_kind, __gmrace_detail::block_size(), 0) {}

  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const {
    return __gmrace_detail::block_rank();
  }
  __device__ unsigned int size() const { return __gmrace_detail::block_size(); }
  __device__ unsigned int num_threads() const {
    return __gmrace_detail::block_size();
  }
  __device__ dim3 group_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  __device__ dim3 thread_index() const {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  __device__ dim3 group_dim() const {
    return dim3(blockDim.x, blockDim.y, blockDim.z);
  }
  __device__ dim3 dim_threads() const { return group_dim(); }
};

static __device__ __forceinline__ thread_block this_thread_block() {
  return thread_block();
}

/* All threads of the grid (cooperative launch). */
class grid_group {
public:
  __device__ grid_group() {}

  __device__ void sync() const { __gmrace_cg_grid_sync(); }
  __device__ bool is_valid() const { return true; }
  __device__ unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __device__ unsigned long long block_rank() const {
    return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) *
               gridDim.x +
           blockIdx.x;
  }
  __device__ unsigned long long size() const {
    return num_blocks() * __gmrace_detail::block_size();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long thread_rank() const {
    return block_rank() * __gmrace_detail::block_size() +
           __gmrace_detail::block_rank();
  }
  __device__ dim3 group_dim() const {
    return dim3(gridDim.x, gridDim.y, gridDim.z);
  }
  __device__ dim3 dim_blocks() const { return group_dim(); }
  __device__ dim3 block_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
};

static __device__ __forceinline__ grid_group this_grid() { return grid_group(); }

/* Warp-level operations shared by thread_block_tile and coalesced_group;
 * __gmr_Derived provides __lane_mask(). */
template <class __gmr_Derived> class __warp_ops {
  __device__ unsigned int __m() const {
    return static_cast<const __gmr_Derived *>(this)->__lane_mask();
  }

public:
  __device__ int any(int pred) const { return __any_sync(__m(), pred); }
  __device__ int all(int pred) const { return __all_sync(__m(), pred); }
  __device__ unsigned int ballot(int pred) const {
    return __ballot_sync(__m(), pred);
  }
  template <class __gmr_T> __device__ unsigned int match_any(__gmr_T value) const {
    return __match_any_sync(__m(), value);
  }
  template <class __gmr_T>
  __device__ unsigned int match_all(__gmr_T value, int &pred) const {
    return __match_all_sync(__m(), value, &pred);
  }
};

/* Statically sized partition of a thread block (__gmr_Size: power of two <= 32). */
template <unsigned int __gmr_Size>
class thread_block_tile : public __warp_ops<thread_block_tile<__gmr_Size> > {
  static_assert(__gmr_Size > 0 && __gmr_Size <= 32 && (__gmr_Size & (__gmr_Size - 1)) == 0,
                "thread_block_tile size must be a power of two <= 32");

public:
  __device__ thread_block_tile() {}
  __device__ operator thread_group() const {
    return thread_group(thread_group::__tile_kind, __gmr_Size, __lane_mask());
  }

  __device__ unsigned int __lane_mask() const {
    return __gmrace_detail::tile_mask(__gmr_Size);
  }
  __device__ void sync() const { __syncwarp(__lane_mask()); }
  __device__ unsigned int thread_rank() const {
    return __gmrace_detail::block_rank() & (__gmr_Size - 1);
  }
  __device__ unsigned int size() const { return __gmr_Size; }
  __device__ unsigned int num_threads() const { return __gmr_Size; }
  __device__ unsigned int meta_group_rank() const {
    return __gmrace_detail::block_rank() / __gmr_Size;
  }
  __device__ unsigned int meta_group_size() const {
    return (__gmrace_detail::block_size() + __gmr_Size - 1) / __gmr_Size;
  }
  __device__ bool is_valid() const { return true; }

  template <class __gmr_T> __device__ __gmr_T shfl(__gmr_T var, int srcRank) const {
    return __shfl_sync(__lane_mask(), var, srcRank, __gmr_Size);
  }
  template <class __gmr_T> __device__ __gmr_T shfl_down(__gmr_T var, unsigned int delta) const {
    return __shfl_down_sync(__lane_mask(), var, delta, __gmr_Size);
  }
  template <class __gmr_T> __device__ __gmr_T shfl_up(__gmr_T var, unsigned int delta) const {
    return __shfl_up_sync(__lane_mask(), var, delta, __gmr_Size);
  }
  template <class __gmr_T> __device__ __gmr_T shfl_xor(__gmr_T var, int laneMask) const {
    return __shfl_xor_sync(__lane_mask(), var, laneMask, __gmr_Size);
  }
};

template <unsigned int __gmr_Size>
static __device__ __forceinline__ thread_block_tile<__gmr_Size>
tiled_partition(const thread_block &) {
  return thread_block_tile<__gmr_Size>();
}
template <unsigned int __gmr_Size, unsigned int ParentSize>
static __device__ __forceinline__ thread_block_tile<__gmr_Size>
tiled_partition(const thread_block_tile<ParentSize> &) {
  return thread_block_tile<__gmr_Size>();
}
/* Dynamically sized partition. */
static __device__ __forceinline__ thread_group
tiled_partition(const thread_group &, unsigned int tilesz) {
  return thread_group(thread_group::__tile_kind, tilesz,
                      __gmrace_detail::tile_mask(tilesz));
}

/* The currently converged threads of the warp. */
class coalesced_group : public __warp_ops<coalesced_group> {
  unsigned int __mask;

public:
  __device__ explicit coalesced_group(unsigned int mask) : __mask(mask) {}
  __device__ operator thread_group() const {
    return thread_group(thread_group::__coalesced_kind, size(), __mask);
  }

  __device__ unsigned int __lane_mask() const { return __mask; }
  __device__ void sync() const { __syncwarp(__mask); }
  __device__ unsigned int size() const { return __popc(__mask); }
  __device__ unsigned int num_threads() const { return size(); }
  __device__ unsigned int thread_rank() const {
    return __popc(__mask & __gmrace_detail::lanes_below());
  }
  __device__ bool is_valid() const { return true; }

  /* Ranks are translated to lane numbers of the set bits of the mask. */
  template <class __gmr_T> __device__ __gmr_T shfl(__gmr_T var, unsigned int srcRank) const {
    return __shfl_sync(__mask, var, __gmrace_detail::nth_lane(__mask, srcRank));
  }
};

static __device__ __forceinline__ coalesced_group coalesced_threads() {
  return coalesced_group(__activemask());
}

/* The lanes of g whose predicate is this lane's (cooperative_groups::binary_partition). */
static __device__ __forceinline__ coalesced_group
__gmr_partition(unsigned int mask, bool pred) {
  unsigned int votes = __ballot_sync(mask, pred);
  return coalesced_group(pred ? (mask & votes) : (mask & ~votes));
}
template <unsigned int __gmr_Size>
static __device__ __forceinline__ coalesced_group
binary_partition(const thread_block_tile<__gmr_Size> &g, bool pred) {
  return __gmr_partition(g.__lane_mask(), pred);
}
static __device__ __forceinline__ coalesced_group
binary_partition(const coalesced_group &g, bool pred) {
  return __gmr_partition(g.__lane_mask(), pred);
}

/* Free-function barriers. */
template <class __gmr_Group> static __device__ __forceinline__ void sync(const __gmr_Group &g) {
  g.sync();
}
template <class __gmr_Group>
static __device__ __forceinline__ void synchronize(const __gmr_Group &g) {
  g.sync();
}

/* ---- reductions (cooperative_groups/reduce.h) ---- */
template <class __gmr_T> struct plus {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return a + b; }
};
template <class __gmr_T> struct less {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return b < a ? b : a; }
};
template <class __gmr_T> struct greater {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return a < b ? b : a; }
};
template <class __gmr_T> struct bit_and {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return a & b; }
};
template <class __gmr_T> struct bit_or {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return a | b; }
};
template <class __gmr_T> struct bit_xor {
  __device__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const { return a ^ b; }
};

/* Butterfly reduction over a thread_block_tile; every thread gets the result. */
template <unsigned int __gmr_Size, class __gmr_T, class __gmr_Op>
static __device__ __forceinline__ __gmr_T reduce(const thread_block_tile<__gmr_Size> &g,
                                           __gmr_T val, __gmr_Op op) {
  for (unsigned int offset = __gmr_Size / 2; offset > 0; offset /= 2)
    val = op(val, g.shfl_xor(val, offset));
  return val;
}

/* Over a coalesced group, whose lanes need not be contiguous: every member reads
 * every member's value in rank order, so all get the same result. */
template <class __gmr_T, class __gmr_Op>
static __device__ __forceinline__ __gmr_T reduce(const coalesced_group &g, __gmr_T val,
                                                 __gmr_Op op) {
  __gmr_T acc = g.shfl(val, 0);
  for (unsigned int rank = 1; rank < g.size(); rank++)
    acc = op(acc, g.shfl(val, rank));
  return acc;
}

/* Asynchronous copies by a group and the waits for them, declared only: the front end reads a
 * copy as one beside every access of the block until the kernel ends, and a wait as
 * synchronisation it leaves out (lower/call.rs). `count` is in bytes. */
template <class __gmr_Group, class __gmr_T, class __gmr_Size>
__device__ void memcpy_async(const __gmr_Group &__gmr_group, __gmr_T *__gmr_dst,
                             const __gmr_T *__gmr_src, const __gmr_Size &__gmr_count);
template <class __gmr_Group> __device__ void wait(const __gmr_Group &__gmr_group);
template <unsigned int __gmr_Prior, class __gmr_Group>
__device__ void wait_prior(const __gmr_Group &__gmr_group);

} // namespace cooperative_groups

#endif /* GMRACE_COOPERATIVE_GROUPS_H */
