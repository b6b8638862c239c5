// A built-in variable read through a library function, in code the lowering drops. The
// structured binding is unsupported (a warning; its names' values are unknown), and
// cooperative groups' `thread_rank()` in it reads `threadIdx` and `blockDim`, in the library's
// header. The functions of the library are followed only from dropped code: elsewhere the IR
// holds what they read. Before, nothing counted that read, the block was taken as one thread,
// and the write every thread makes to `a[0]` was proved race-free. It is `unknown` now.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Ranks {
  unsigned r, q;
};

__global__ void rank_in_structured_binding(float *a) {
  auto [r, q] = Ranks{cg::this_thread_block().thread_rank(), 0};
  a[0] = r;
}

// The same read where the lowering keeps it: the block's extents are those the library's
// rank reads, and the race is found.
__global__ void rank_kept(float *a) {
  int t = cg::this_thread_block().thread_rank();
  a[0] = t; // RACE
}
