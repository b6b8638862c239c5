#include <cooperative_groups.h>
namespace cg = cooperative_groups;
enum Mode { A, B = 4 };
__global__ void lam(int *g, float *f) {
  auto blk = cg::this_thread_block();
  auto add = [&](int k) { g[k] += 1; return k * 2; };
  int r = add(static_cast<int>(threadIdx.x));
  float *fp = reinterpret_cast<float *>(g);
  const int *cp = const_cast<const int *>(g);
  f[threadIdx.x] = fp[r] + (float)cp[B] + sqrtf(f[0]);
  blk.sync();
  long long big = (long long)g[0] << 40;
  g[1] = (int)(big % 7) + sizeof(Mode);
}
