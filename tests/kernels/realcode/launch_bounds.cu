// Kernels declared with `__launch_bounds__`, in a file with no launch (the block stays open),
// as library kernels are shipped. A launch of more threads per block than the first argument
// fails, so thread t and thread t + 128 never meet in a block of at most 128: `s[t % 128]` is
// each thread's own there. The bound is read per instantiation (template arguments, macros);
// where it allows such a pair, or where no bound evaluates, the race is still found.
#define WARP_SIZE 32
#define BLOCK (2 * 64)

template <int NUM_WARPS>
__global__ void __launch_bounds__(NUM_WARPS * WARP_SIZE) warps(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % 128] = t; // RACE in warps<8> only
  __syncthreads();
  out[t] = s[t % 128];
}
template __global__ void warps<4>(float *);
template __global__ void warps<8>(float *);

__global__ void __launch_bounds__(BLOCK, 4) by_macro(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % 128] = t;
  __syncthreads();
  out[t] = s[t % 128];
}

// Two dimensions: at most 128 threads in all, so no two threads share a linear index mod 128.
__global__ void __launch_bounds__(128) tile(float *out) {
  __shared__ float s[128];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  s[t % 128] = t;
  __syncthreads();
  out[t] = s[(t + 1) % 128];
}

constexpr int kWarpSize = 32;
enum { kTileThreads = 128 };

// Namespace-scope constants evaluate: at most 4 * 32 = 128 threads.
template <int W>
__global__ void __launch_bounds__(W * kWarpSize) by_constant(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % kTileThreads] = t;
  __syncthreads();
  out[t] = s[t % kTileThreads];
}
template __global__ void by_constant<4>(float *);

namespace wide {
constexpr int kThreads = 512;
}
namespace narrow {
constexpr int kThreads = 128;
}
using namespace narrow;

// `kThreads` is declared in two namespaces: which one a name means is not worked out, so no
// bound (the race a larger block has is reported).
__global__ void __launch_bounds__(kThreads) by_ambiguous_name(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % 128] = t; // RACE (the bound is not read)
  __syncthreads();
  out[t] = s[t % 128];
}

struct Spec {
  static constexpr int kThreads = 128;
};

// A bound through a class member is not evaluated: the race a larger block has is reported.
__global__ void __launch_bounds__(Spec::kThreads) by_member(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % 128] = t; // RACE (the bound is not read)
  __syncthreads();
  out[t] = s[t % 128];
}

__global__ void unbounded(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t % 128] = t; // RACE
  __syncthreads();
  out[t] = s[t % 128];
}

// Launched with more threads than its bound: the launch fails on a GPU; the analysis of the
// launch as written says so in its notes.
__global__ void __launch_bounds__(64) too_small(float *out) {
  __shared__ float s[64];
  s[threadIdx.x % 64] = threadIdx.x; // RACE under the (failing) launch of 128
  __syncthreads();
  out[threadIdx.x] = s[0];
}

void launch_too_small(float *d) { too_small<<<1, 128>>>(d); }
