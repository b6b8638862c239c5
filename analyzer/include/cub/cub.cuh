/*
 * gmrace stand-in for CUB's block and warp collectives (<cub/cub.cuh>), used when no CUDA
 * toolkit is installed (with one, its own CUB is read instead).
 *
 * Provided (namespace cub): BlockReduce, BlockScan, BlockLoad, BlockStore, BlockExchange,
 * BlockAdjacentDifference, WarpReduce, WarpScan, WarpExchange, LoadDirectBlocked/Striped,
 * StoreDirectBlocked/Striped, KeyValuePair, Traits (radix bits), the Sum/Max/Min/ArgMax/ArgMin
 * functors and the algorithm enums. The device-wide algorithms (DeviceReduce, DeviceScan, ...)
 * are host code and are not provided: a host call of them is a warning, as any host error.
 *
 * What each collective computes is CUB's (blocked or striped arrangements, results valid where
 * CUB documents them). How it synchronises is CUB's too, since that decides the races a
 * kernel has around a call: a block collective that uses its TempStorage writes it, passes one
 * __syncthreads() and reads it, with no barrier after (CUB asks for one before the storage is
 * reused); a warp collective does the same with __syncwarp(); direct loads and stores touch
 * no shared memory. The storage is touched from its first byte, one slot per thread or item:
 * byte for byte, CUB's own layout differs (read a toolkit's headers for it).
 *
 * Internal names start with __gmr_ so that a user's macros (BLOCK_THREADS, N, ...) do not
 * reach them.
 */
#ifndef GMRACE_CUB_CUH
#define GMRACE_CUB_CUH

#include "gmrace_cuda.h"

#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_RUNTIME_FUNCTION __host__ __device__
#define CUB_PTX_ARCH 700

namespace cub {

struct NullType {};

/* ---- functors ---- */
struct Sum {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const {
    return a + b;
  }
};
struct Max {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const {
    return b < a ? b : a;
  }
};
struct Equality {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ bool operator()(const __gmr_T &a, const __gmr_T &b) const {
    return a == b;
  }
};
struct Inequality {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ bool operator()(const __gmr_T &a, const __gmr_T &b) const {
    return !(a == b);
  }
};
struct Difference {
  template <typename __gmr_T>
  __host__ __device__ __forceinline__ __gmr_T operator()(const __gmr_T &a, const __gmr_T &b) const {
    return a - b;
  }
};

template <typename __gmr_K, typename __gmr_V>
struct KeyValuePair {
  typedef __gmr_K Key;
  typedef __gmr_V Value;
  __gmr_K key;
  __gmr_V value;
  __host__ __device__ __forceinline__ KeyValuePair() {}
  __host__ __device__ __forceinline__ KeyValuePair(const __gmr_K &k, const __gmr_V &v)
      : key(k), value(v) {}
};

/* The larger value; of equal ones, the smaller key (CUB's tie rule). */
struct ArgMax {
  template <typename __gmr_P>
  __host__ __device__ __forceinline__ __gmr_P operator()(const __gmr_P &a, const __gmr_P &b) const {
    return (b.value > a.value || (b.value == a.value && b.key < a.key)) ? b : a;
  }
};
struct ArgMin {
  template <typename __gmr_P>
  __host__ __device__ __forceinline__ __gmr_P operator()(const __gmr_P &a, const __gmr_P &b) const {
    return (b.value < a.value || (b.value == a.value && b.key < a.key)) ? b : a;
  }
};

/* ---- radix traits: the unsigned bits of a key, ordered as the keys are ---- */
enum Category { NOT_A_NUMBER, SIGNED_INTEGER, UNSIGNED_INTEGER, FLOATING_POINT };

template <Category __gmr_C, typename __gmr_U, typename __gmr_T>
struct BaseTraits {
  typedef __gmr_U UnsignedBits;
  static const Category CATEGORY = __gmr_C;
  static const __gmr_U HIGH_BIT = __gmr_U(1) << (sizeof(__gmr_U) * 8 - 1);
  static const __gmr_U LOWEST_KEY = __gmr_C == UNSIGNED_INTEGER ? __gmr_U(0) : HIGH_BIT;
  static const __gmr_U MAX_KEY = __gmr_C == UNSIGNED_INTEGER ? __gmr_U(-1) : __gmr_U(HIGH_BIT - 1);
  static __host__ __device__ __forceinline__ __gmr_U TwiddleIn(__gmr_U key) {
    if (__gmr_C == UNSIGNED_INTEGER) return key;
    if (__gmr_C == SIGNED_INTEGER) return key ^ HIGH_BIT;
    __gmr_U mask = (key & HIGH_BIT) ? __gmr_U(-1) : HIGH_BIT;
    return key ^ mask;
  }
  static __host__ __device__ __forceinline__ __gmr_U TwiddleOut(__gmr_U key) {
    if (__gmr_C == UNSIGNED_INTEGER) return key;
    if (__gmr_C == SIGNED_INTEGER) return key ^ HIGH_BIT;
    __gmr_U mask = (key & HIGH_BIT) ? HIGH_BIT : __gmr_U(-1);
    return key ^ mask;
  }
};

template <typename __gmr_T> struct Traits {};
template <> struct Traits<char> : BaseTraits<SIGNED_INTEGER, unsigned char, char> {};
template <> struct Traits<signed char> : BaseTraits<SIGNED_INTEGER, unsigned char, signed char> {};
template <> struct Traits<short> : BaseTraits<SIGNED_INTEGER, unsigned short, short> {};
template <> struct Traits<int> : BaseTraits<SIGNED_INTEGER, unsigned int, int> {};
template <> struct Traits<long> : BaseTraits<SIGNED_INTEGER, unsigned long, long> {};
template <> struct Traits<long long> : BaseTraits<SIGNED_INTEGER, unsigned long long, long long> {};
template <> struct Traits<unsigned char> : BaseTraits<UNSIGNED_INTEGER, unsigned char, unsigned char> {};
template <> struct Traits<unsigned short> : BaseTraits<UNSIGNED_INTEGER, unsigned short, unsigned short> {};
template <> struct Traits<unsigned int> : BaseTraits<UNSIGNED_INTEGER, unsigned int, unsigned int> {};
template <> struct Traits<unsigned long> : BaseTraits<UNSIGNED_INTEGER, unsigned long, unsigned long> {};
template <> struct Traits<unsigned long long>
    : BaseTraits<UNSIGNED_INTEGER, unsigned long long, unsigned long long> {};
template <> struct Traits<float> : BaseTraits<FLOATING_POINT, unsigned int, float> {};
template <> struct Traits<double> : BaseTraits<FLOATING_POINT, unsigned long long, double> {};

/* ---- algorithm and cache-modifier enums (every algorithm computes the same) ---- */
enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS
};
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};
enum WarpExchangeAlgorithm { WARP_EXCHANGE_SMEM, WARP_EXCHANGE_SHUFFLE };
enum CacheLoadModifier { LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE };
enum CacheStoreModifier { STORE_DEFAULT, STORE_WB, STORE_CG, STORE_CS, STORE_WT, STORE_VOLATILE };

namespace __gmr {
template <int __gmr_X, int __gmr_Y, int __gmr_Z>
__device__ __forceinline__ int linear_tid() {
  return threadIdx.x + threadIdx.y * __gmr_X + threadIdx.z * __gmr_X * __gmr_Y;
}
/* The lane in a logical warp of __gmr_W threads: warps are consecutive threads of the block's
 * linear order. */
template <int __gmr_W>
__device__ __forceinline__ int lane() {
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % __gmr_W;
}
template <int __gmr_N, typename __gmr_T, typename __gmr_Op>
__device__ __forceinline__ __gmr_T thread_reduce(__gmr_T (&items)[__gmr_N], __gmr_Op op) {
  __gmr_T acc = items[0];
  for (int i = 1; i < __gmr_N; i++) acc = op(acc, items[i]);
  return acc;
}
/* A collective's TempStorage: __gmr_N slots of __gmr_T, touched from the first. */
template <typename __gmr_T, int __gmr_N>
struct Slots {
  __gmr_T items[__gmr_N];
};
} // namespace __gmr

/* What every block collective has: TempStorage, the block's size, the storage it works in
 * (the caller's, or a __shared__ one of its own) and the calling thread's rank. */
#define __GMR_BLOCK_COLLECTIVE(__gmr_Class, __gmr_SLOTS)                                   \
public:                                                                                   \
  typedef __gmr::Slots<__gmr_T, __gmr_SLOTS> TempStorage;                                 \
                                                                                          \
private:                                                                                  \
  static const int __gmr_THREADS = __gmr_X * __gmr_Y * __gmr_Z;                           \
  TempStorage &temp;                                                                      \
  int tid;                                                                                \
  __device__ __forceinline__ TempStorage &private_storage() {                             \
    __shared__ TempStorage storage;                                                       \
    return storage;                                                                       \
  }                                                                                       \
                                                                                          \
public:                                                                                   \
  __device__ __forceinline__ __gmr_Class()                                                \
      : temp(private_storage()), tid(__gmr::linear_tid<__gmr_X, __gmr_Y, __gmr_Z>()) {}   \
  __device__ __forceinline__ __gmr_Class(TempStorage &t)                                  \
      : temp(t), tid(__gmr::linear_tid<__gmr_X, __gmr_Y, __gmr_Z>()) {}

/* What every warp collective has: TempStorage, the storage it works in and the lane. */
#define __GMR_WARP_COLLECTIVE(__gmr_Class, __gmr_SLOTS)                                    \
public:                                                                                   \
  typedef __gmr::Slots<__gmr_T, __gmr_SLOTS> TempStorage;                                 \
                                                                                          \
private:                                                                                  \
  TempStorage &temp;                                                                      \
  int lane;                                                                               \
                                                                                          \
public:                                                                                   \
  __device__ __forceinline__ __gmr_Class(TempStorage &t) : temp(t), lane(__gmr::lane<__gmr_W>()) {}

/* ---- direct loads and stores: no shared memory ---- */
template <typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void LoadDirectBlocked(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I]) {
  for (int i = 0; i < __gmr_I; i++) items[i] = in[tid * __gmr_I + i];
}
template <typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void LoadDirectBlocked(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I],
                                                  int valid) {
  for (int i = 0; i < __gmr_I; i++)
    if (tid * __gmr_I + i < valid) items[i] = in[tid * __gmr_I + i];
}
template <typename __gmr_T, int __gmr_I, typename __gmr_It, typename __gmr_D>
__device__ __forceinline__ void LoadDirectBlocked(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I],
                                                  int valid, __gmr_D oob) {
  for (int i = 0; i < __gmr_I; i++)
    items[i] = tid * __gmr_I + i < valid ? __gmr_T(in[tid * __gmr_I + i]) : __gmr_T(oob);
}
template <int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void LoadDirectStriped(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I]) {
  for (int i = 0; i < __gmr_I; i++) items[i] = in[i * __gmr_B + tid];
}
template <int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void LoadDirectStriped(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I],
                                                  int valid) {
  for (int i = 0; i < __gmr_I; i++)
    if (i * __gmr_B + tid < valid) items[i] = in[i * __gmr_B + tid];
}
template <int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It, typename __gmr_D>
__device__ __forceinline__ void LoadDirectStriped(int tid, __gmr_It in, __gmr_T (&items)[__gmr_I],
                                                  int valid, __gmr_D oob) {
  for (int i = 0; i < __gmr_I; i++)
    items[i] = i * __gmr_B + tid < valid ? __gmr_T(in[i * __gmr_B + tid]) : __gmr_T(oob);
}
template <typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void StoreDirectBlocked(int tid, __gmr_It out, __gmr_T (&items)[__gmr_I]) {
  for (int i = 0; i < __gmr_I; i++) out[tid * __gmr_I + i] = items[i];
}
template <typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void StoreDirectBlocked(int tid, __gmr_It out, __gmr_T (&items)[__gmr_I],
                                                   int valid) {
  for (int i = 0; i < __gmr_I; i++)
    if (tid * __gmr_I + i < valid) out[tid * __gmr_I + i] = items[i];
}
template <int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void StoreDirectStriped(int tid, __gmr_It out, __gmr_T (&items)[__gmr_I]) {
  for (int i = 0; i < __gmr_I; i++) out[i * __gmr_B + tid] = items[i];
}
template <int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void StoreDirectStriped(int tid, __gmr_It out, __gmr_T (&items)[__gmr_I],
                                                   int valid) {
  for (int i = 0; i < __gmr_I; i++)
    if (i * __gmr_B + tid < valid) out[i * __gmr_B + tid] = items[i];
}
/* The modifier-first form (`StoreDirectStriped<STORE_DEFAULT, 128>(...)`). */
template <CacheStoreModifier __gmr_M, int __gmr_B, typename __gmr_T, int __gmr_I, typename __gmr_It>
__device__ __forceinline__ void StoreDirectStriped(int tid, __gmr_It out, __gmr_T (&items)[__gmr_I]) {
  for (int i = 0; i < __gmr_I; i++) out[i * __gmr_B + tid] = items[i];
}

/* ---- BlockExchange: write every item, one barrier, read ---- */
template <typename __gmr_T, int __gmr_X, int __gmr_I, bool __gmr_WARP_TIME_SLICING = false,
          int __gmr_Y = 1, int __gmr_Z = 1, int __gmr_ARCH = 0>
class BlockExchange {
  __GMR_BLOCK_COLLECTIVE(BlockExchange, __gmr_X * __gmr_Y * __gmr_Z * __gmr_I)

private:
  /* Item i of this thread goes to slot put(i) and comes back from slot get(i). */
  template <int __gmr_PUT, int __gmr_GET, typename __gmr_O>
  __device__ __forceinline__ void exchange(__gmr_T (&in)[__gmr_I], __gmr_O (&out)[__gmr_I]) {
    for (int i = 0; i < __gmr_I; i++) temp.items[slot(__gmr_PUT, i)] = in[i];
    __syncthreads();
    for (int i = 0; i < __gmr_I; i++) out[i] = temp.items[slot(__gmr_GET, i)];
  }
  /* 0 blocked, 1 striped, 2 warp-striped. */
  __device__ __forceinline__ int slot(int arrangement, int i) const {
    if (arrangement == 0) return tid * __gmr_I + i;
    if (arrangement == 1) return i * __gmr_THREADS + tid;
    int warp = tid / 32, lane = tid % 32;
    return warp * 32 * __gmr_I + i * 32 + lane;
  }

public:
  template <typename __gmr_O>
  __device__ __forceinline__ void BlockedToStriped(__gmr_T (&in)[__gmr_I], __gmr_O (&out)[__gmr_I]) {
    exchange<0, 1>(in, out);
  }
  template <typename __gmr_O>
  __device__ __forceinline__ void StripedToBlocked(__gmr_T (&in)[__gmr_I], __gmr_O (&out)[__gmr_I]) {
    exchange<1, 0>(in, out);
  }
  template <typename __gmr_O>
  __device__ __forceinline__ void BlockedToWarpStriped(__gmr_T (&in)[__gmr_I],
                                                       __gmr_O (&out)[__gmr_I]) {
    exchange<0, 2>(in, out);
  }
  template <typename __gmr_O>
  __device__ __forceinline__ void WarpStripedToBlocked(__gmr_T (&in)[__gmr_I],
                                                       __gmr_O (&out)[__gmr_I]) {
    exchange<2, 0>(in, out);
  }
};

/* ---- WarpExchange: the same within a warp, with __syncwarp() ---- */
template <typename __gmr_T, int __gmr_I, int __gmr_W = 32,
          WarpExchangeAlgorithm __gmr_A = WARP_EXCHANGE_SMEM, int __gmr_ARCH = 0>
class WarpExchange {
  __GMR_WARP_COLLECTIVE(WarpExchange, __gmr_W * __gmr_I)

  template <typename __gmr_O>
  __device__ __forceinline__ void BlockedToStriped(__gmr_T (&in)[__gmr_I], __gmr_O (&out)[__gmr_I]) {
    for (int i = 0; i < __gmr_I; i++) temp.items[lane * __gmr_I + i] = in[i];
    __syncwarp();
    for (int i = 0; i < __gmr_I; i++) out[i] = temp.items[i * __gmr_W + lane];
  }
  template <typename __gmr_O>
  __device__ __forceinline__ void StripedToBlocked(__gmr_T (&in)[__gmr_I], __gmr_O (&out)[__gmr_I]) {
    for (int i = 0; i < __gmr_I; i++) temp.items[i * __gmr_W + lane] = in[i];
    __syncwarp();
    for (int i = 0; i < __gmr_I; i++) out[i] = temp.items[lane * __gmr_I + i];
  }
};

/* ---- BlockLoad / BlockStore: blocked results; the transposes go through shared memory as
 * CUB's do (TRANSPOSE: a block exchange; WARP_TRANSPOSE: a warp exchange) ---- */
template <typename __gmr_T, int __gmr_X, int __gmr_I,
          BlockLoadAlgorithm __gmr_A = BLOCK_LOAD_DIRECT, int __gmr_Y = 1, int __gmr_Z = 1,
          int __gmr_ARCH = 0>
class BlockLoad {
  __GMR_BLOCK_COLLECTIVE(BlockLoad, __gmr_X * __gmr_Y * __gmr_Z * __gmr_I)

private:
  /* Warp-striped slot of item i, the order CUB's warp transposes load in. */
  __device__ __forceinline__ int warp_striped(int i) const {
    return (tid / 32) * 32 * __gmr_I + i * 32 + tid % 32;
  }

public:
  template <typename __gmr_It>
  __device__ __forceinline__ void Load(__gmr_It in, __gmr_T (&items)[__gmr_I]) {
    Load(in, items, __gmr_THREADS * __gmr_I, __gmr_T());
  }
  template <typename __gmr_It>
  __device__ __forceinline__ void Load(__gmr_It in, __gmr_T (&items)[__gmr_I], int valid) {
    if (__gmr_A == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<__gmr_THREADS>(tid, in, items, valid);
    } else if (__gmr_A == BLOCK_LOAD_TRANSPOSE || __gmr_A == BLOCK_LOAD_WARP_TRANSPOSE ||
               __gmr_A == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED) {
      load_transposed(in, items, valid, false, __gmr_T());
    } else {
      LoadDirectBlocked(tid, in, items, valid);
    }
  }
  template <typename __gmr_It, typename __gmr_D>
  __device__ __forceinline__ void Load(__gmr_It in, __gmr_T (&items)[__gmr_I], int valid,
                                       __gmr_D oob) {
    if (__gmr_A == BLOCK_LOAD_STRIPED) {
      LoadDirectStriped<__gmr_THREADS>(tid, in, items, valid, oob);
    } else if (__gmr_A == BLOCK_LOAD_TRANSPOSE || __gmr_A == BLOCK_LOAD_WARP_TRANSPOSE ||
               __gmr_A == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED) {
      load_transposed(in, items, valid, true, __gmr_T(oob));
    } else {
      LoadDirectBlocked(tid, in, items, valid, oob);
    }
  }

private:
  template <typename __gmr_It>
  __device__ __forceinline__ void load_transposed(__gmr_It in, __gmr_T (&items)[__gmr_I], int valid,
                                                  bool fill, __gmr_T oob) {
    bool warp = __gmr_A != BLOCK_LOAD_TRANSPOSE;
    for (int i = 0; i < __gmr_I; i++) {
      int at = warp ? warp_striped(i) : i * __gmr_THREADS + tid;
      if (at < valid) temp.items[at] = in[at];
      else if (fill) temp.items[at] = oob;
    }
    if (warp) __syncwarp();
    else __syncthreads();
    for (int i = 0; i < __gmr_I; i++)
      if (tid * __gmr_I + i < valid || fill) items[i] = temp.items[tid * __gmr_I + i];
  }
};

template <typename __gmr_T, int __gmr_X, int __gmr_I,
          BlockStoreAlgorithm __gmr_A = BLOCK_STORE_DIRECT, int __gmr_Y = 1, int __gmr_Z = 1,
          int __gmr_ARCH = 0>
class BlockStore {
  __GMR_BLOCK_COLLECTIVE(BlockStore, __gmr_X * __gmr_Y * __gmr_Z * __gmr_I)

  template <typename __gmr_It>
  __device__ __forceinline__ void Store(__gmr_It out, __gmr_T (&items)[__gmr_I]) {
    Store(out, items, __gmr_THREADS * __gmr_I);
  }
  template <typename __gmr_It>
  __device__ __forceinline__ void Store(__gmr_It out, __gmr_T (&items)[__gmr_I], int valid) {
    if (__gmr_A == BLOCK_STORE_STRIPED) {
      StoreDirectStriped<__gmr_THREADS>(tid, out, items, valid);
    } else if (__gmr_A == BLOCK_STORE_TRANSPOSE || __gmr_A == BLOCK_STORE_WARP_TRANSPOSE ||
               __gmr_A == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED) {
      bool warp = __gmr_A != BLOCK_STORE_TRANSPOSE;
      for (int i = 0; i < __gmr_I; i++) temp.items[tid * __gmr_I + i] = items[i];
      if (warp) __syncwarp();
      else __syncthreads();
      for (int i = 0; i < __gmr_I; i++) {
        int at = warp ? (tid / 32) * 32 * __gmr_I + i * 32 + tid % 32 : i * __gmr_THREADS + tid;
        if (at < valid) out[at] = temp.items[at];
      }
    } else {
      StoreDirectBlocked(tid, out, items, valid);
    }
  }
};

/* ---- BlockReduce: every thread writes its value, one barrier, thread 0 reads them all (the
 * result is valid in thread 0 only, as CUB's) ---- */
template <typename __gmr_T, int __gmr_X,
          BlockReduceAlgorithm __gmr_A = BLOCK_REDUCE_WARP_REDUCTIONS, int __gmr_Y = 1,
          int __gmr_Z = 1, int __gmr_ARCH = 0>
class BlockReduce {
  __GMR_BLOCK_COLLECTIVE(BlockReduce, __gmr_X * __gmr_Y * __gmr_Z)

  template <typename __gmr_Op>
  __device__ __forceinline__ __gmr_T Reduce(__gmr_T input, __gmr_Op op, int valid) {
    temp.items[tid] = input;
    __syncthreads();
    __gmr_T acc = input;
    if (tid == 0) {
      int n = valid;
      if (n > __gmr_THREADS) n = __gmr_THREADS;
      for (int t = 1; t < n; t++) acc = op(acc, temp.items[t]);
    }
    return acc;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ __gmr_T Reduce(__gmr_T input, __gmr_Op op) {
    return Reduce(input, op, __gmr_THREADS);
  }
  template <int __gmr_I, typename __gmr_Op>
  __device__ __forceinline__ __gmr_T Reduce(__gmr_T (&inputs)[__gmr_I], __gmr_Op op) {
    return Reduce(__gmr::thread_reduce(inputs, op), op, __gmr_THREADS);
  }
  __device__ __forceinline__ __gmr_T Sum(__gmr_T input) { return Reduce(input, cub::Sum()); }
  __device__ __forceinline__ __gmr_T Sum(__gmr_T input, int valid) {
    return Reduce(input, cub::Sum(), valid);
  }
  template <int __gmr_I>
  __device__ __forceinline__ __gmr_T Sum(__gmr_T (&inputs)[__gmr_I]) {
    return Reduce(inputs, cub::Sum());
  }
};

/* ---- BlockScan: every thread writes its (thread-reduced) value, one barrier, every thread
 * reads those before it ---- */
template <typename __gmr_T, int __gmr_X, BlockScanAlgorithm __gmr_A = BLOCK_SCAN_RAKING,
          int __gmr_Y = 1, int __gmr_Z = 1, int __gmr_ARCH = 0>
class BlockScan {
  __GMR_BLOCK_COLLECTIVE(BlockScan, __gmr_X * __gmr_Y * __gmr_Z)

private:
  /* The exclusive prefix of this thread (`has_prefix`: false in thread 0, which has none). */
  template <typename __gmr_Op>
  __device__ __forceinline__ void scan(__gmr_T value, __gmr_Op op, __gmr_T &prefix,
                                       bool &has_prefix) {
    temp.items[tid] = value;
    __syncthreads();
    has_prefix = tid > 0;
    if (has_prefix) prefix = temp.items[0];
    for (int t = 1; t < tid; t++) prefix = op(prefix, temp.items[t]);
  }
  /* The block's aggregate, after `scan`. */
  template <typename __gmr_Op>
  __device__ __forceinline__ __gmr_T aggregate_of(__gmr_Op op) {
    __gmr_T aggregate = temp.items[0];
    for (int t = 1; t < __gmr_THREADS; t++) aggregate = op(aggregate, temp.items[t]);
    return aggregate;
  }

public:

  template <typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T input, __gmr_T &output, __gmr_T initial,
                                                __gmr_Op op) {
    __gmr_T prefix;
    bool has;
    scan(input, op, prefix, has);
    output = has ? op(initial, prefix) : initial;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T input, __gmr_T &output, __gmr_T initial,
                                                __gmr_Op op, __gmr_T &aggregate) {
    ExclusiveScan(input, output, initial, op);
    aggregate = aggregate_of(op);
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T input, __gmr_T &output, __gmr_Op op) {
    __gmr_T prefix;
    bool has;
    scan(input, op, prefix, has);
    output = has ? op(prefix, input) : input;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T input, __gmr_T &output, __gmr_Op op,
                                                __gmr_T &aggregate) {
    InclusiveScan(input, output, op);
    aggregate = aggregate_of(op);
  }
  __device__ __forceinline__ void ExclusiveSum(__gmr_T input, __gmr_T &output,
                                               __gmr_T &aggregate) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum(), aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(__gmr_T input, __gmr_T &output) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum());
  }
  __device__ __forceinline__ void InclusiveSum(__gmr_T input, __gmr_T &output,
                                               __gmr_T &aggregate) {
    InclusiveScan(input, output, cub::Sum(), aggregate);
  }
  __device__ __forceinline__ void InclusiveSum(__gmr_T input, __gmr_T &output) {
    InclusiveScan(input, output, cub::Sum());
  }

  /* Items per thread: the thread's items are scanned around its exclusive prefix. */
  template <int __gmr_I, typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T (&input)[__gmr_I],
                                                __gmr_T (&output)[__gmr_I], __gmr_T initial,
                                                __gmr_Op op) {
    __gmr_T running;
    ExclusiveScan(__gmr::thread_reduce(input, op), running, initial, op);
    for (int i = 0; i < __gmr_I; i++) {
      __gmr_T item = input[i];
      output[i] = running;
      running = op(running, item);
    }
  }
  template <int __gmr_I, typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T (&input)[__gmr_I],
                                                __gmr_T (&output)[__gmr_I], __gmr_T initial,
                                                __gmr_Op op, __gmr_T &aggregate) {
    ExclusiveScan(input, output, initial, op);
    aggregate = aggregate_of(op);
  }
  template <int __gmr_I, typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T (&input)[__gmr_I],
                                                __gmr_T (&output)[__gmr_I], __gmr_Op op) {
    __gmr_T prefix;
    bool has;
    scan(__gmr::thread_reduce(input, op), op, prefix, has);
    __gmr_T running = has ? op(prefix, input[0]) : input[0];
    for (int i = 0; i < __gmr_I; i++) {
      __gmr_T item = input[i];
      if (i > 0) running = op(running, item);
      output[i] = running;
    }
  }
  template <int __gmr_I, typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T (&input)[__gmr_I],
                                                __gmr_T (&output)[__gmr_I], __gmr_Op op,
                                                __gmr_T &aggregate) {
    InclusiveScan(input, output, op);
    aggregate = aggregate_of(op);
  }
  template <int __gmr_I>
  __device__ __forceinline__ void ExclusiveSum(__gmr_T (&input)[__gmr_I],
                                               __gmr_T (&output)[__gmr_I], __gmr_T &aggregate) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum(), aggregate);
  }
  template <int __gmr_I>
  __device__ __forceinline__ void ExclusiveSum(__gmr_T (&input)[__gmr_I],
                                               __gmr_T (&output)[__gmr_I]) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum());
  }
  template <int __gmr_I>
  __device__ __forceinline__ void InclusiveSum(__gmr_T (&input)[__gmr_I],
                                               __gmr_T (&output)[__gmr_I], __gmr_T &aggregate) {
    InclusiveScan(input, output, cub::Sum(), aggregate);
  }
  template <int __gmr_I>
  __device__ __forceinline__ void InclusiveSum(__gmr_T (&input)[__gmr_I],
                                               __gmr_T (&output)[__gmr_I]) {
    InclusiveScan(input, output, cub::Sum());
  }
};

/* ---- BlockAdjacentDifference: every thread writes its first and last items, one barrier,
 * each reads its neighbour's ---- */
template <typename __gmr_T, int __gmr_X, int __gmr_Y = 1, int __gmr_Z = 1, int __gmr_ARCH = 0>
class BlockAdjacentDifference {
  /* Each thread's last item, then each thread's first. */
  __GMR_BLOCK_COLLECTIVE(BlockAdjacentDifference, 2 * __gmr_X * __gmr_Y * __gmr_Z)

  /* output[i] = op(input[i], input[i - 1]); the block's first item is kept. */
  template <int __gmr_I, typename __gmr_O, typename __gmr_Op>
  __device__ __forceinline__ void SubtractLeft(__gmr_T (&input)[__gmr_I], __gmr_O (&output)[__gmr_I],
                                               __gmr_Op op) {
    temp.items[tid] = input[__gmr_I - 1];
    __syncthreads();
    for (int i = __gmr_I - 1; i > 0; i--) output[i] = op(input[i], input[i - 1]);
    output[0] = tid == 0 ? input[0] : op(input[0], temp.items[tid - 1]);
  }
  /* output[i] = op(input[i], input[i + 1]); the block's last item is kept. */
  template <int __gmr_I, typename __gmr_O, typename __gmr_Op>
  __device__ __forceinline__ void SubtractRight(__gmr_T (&input)[__gmr_I],
                                                __gmr_O (&output)[__gmr_I], __gmr_Op op) {
    temp.items[__gmr_THREADS + tid] = input[0];
    __syncthreads();
    for (int i = 0; i < __gmr_I - 1; i++) output[i] = op(input[i], input[i + 1]);
    output[__gmr_I - 1] = tid == __gmr_THREADS - 1 ? input[__gmr_I - 1]
                                                   : op(input[__gmr_I - 1], temp.items[__gmr_THREADS + tid + 1]);
  }
};

/* ---- WarpReduce / WarpScan: per logical warp, with __syncwarp() ---- */
template <typename __gmr_T, int __gmr_W = 32, int __gmr_ARCH = 0>
class WarpReduce {
  __GMR_WARP_COLLECTIVE(WarpReduce, __gmr_W)

  /* The result is valid in the logical warp's lane 0, as CUB's. */
  template <typename __gmr_Op>
  __device__ __forceinline__ __gmr_T Reduce(__gmr_T input, __gmr_Op op, int valid) {
    temp.items[lane] = input;
    __syncwarp();
    __gmr_T acc = input;
    if (lane == 0) {
      int n = valid;
      if (n > __gmr_W) n = __gmr_W;
      for (int l = 1; l < n; l++) acc = op(acc, temp.items[l]);
    }
    return acc;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ __gmr_T Reduce(__gmr_T input, __gmr_Op op) {
    return Reduce(input, op, __gmr_W);
  }
  __device__ __forceinline__ __gmr_T Sum(__gmr_T input) { return Reduce(input, cub::Sum()); }
  __device__ __forceinline__ __gmr_T Sum(__gmr_T input, int valid) {
    return Reduce(input, cub::Sum(), valid);
  }
};

template <typename __gmr_T, int __gmr_W = 32, int __gmr_ARCH = 0>
class WarpScan {
  __GMR_WARP_COLLECTIVE(WarpScan, __gmr_W)

  template <typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T input, __gmr_T &output, __gmr_Op op) {
    temp.items[lane] = input;
    __syncwarp();
    __gmr_T acc = temp.items[0];
    for (int l = 1; l <= lane; l++) acc = op(acc, temp.items[l]);
    output = acc;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T input, __gmr_T &output, __gmr_T initial,
                                                __gmr_Op op) {
    temp.items[lane] = input;
    __syncwarp();
    __gmr_T acc = initial;
    for (int l = 0; l < lane; l++) acc = op(acc, temp.items[l]);
    output = acc;
  }
  __device__ __forceinline__ void InclusiveSum(__gmr_T input, __gmr_T &output) {
    InclusiveScan(input, output, cub::Sum());
  }
  __device__ __forceinline__ void ExclusiveSum(__gmr_T input, __gmr_T &output) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum());
  }
  /* The overloads that also give every lane the warp's total: the same slots, read to the end. */
  template <typename __gmr_Op>
  __device__ __forceinline__ void InclusiveScan(__gmr_T input, __gmr_T &output, __gmr_Op op,
                                                __gmr_T &warp_aggregate) {
    InclusiveScan(input, output, op);
    __gmr_T acc = temp.items[0];
    for (int l = 1; l < __gmr_W; l++) acc = op(acc, temp.items[l]);
    warp_aggregate = acc;
  }
  template <typename __gmr_Op>
  __device__ __forceinline__ void ExclusiveScan(__gmr_T input, __gmr_T &output, __gmr_T initial,
                                                __gmr_Op op, __gmr_T &warp_aggregate) {
    ExclusiveScan(input, output, initial, op);
    __gmr_T acc = temp.items[0];
    for (int l = 1; l < __gmr_W; l++) acc = op(acc, temp.items[l]);
    warp_aggregate = acc;
  }
  __device__ __forceinline__ void InclusiveSum(__gmr_T input, __gmr_T &output,
                                               __gmr_T &warp_aggregate) {
    InclusiveScan(input, output, cub::Sum(), warp_aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(__gmr_T input, __gmr_T &output,
                                               __gmr_T &warp_aggregate) {
    ExclusiveScan(input, output, __gmr_T(0), cub::Sum(), warp_aggregate);
  }
};

} // namespace cub

#endif
