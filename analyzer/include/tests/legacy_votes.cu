// Legacy warp votes without underscores, all(int) / any(int), next to host
// code using <algorithm> (std::all_of / std::any_of) and kernels that
// declare their own `unsigned int all(unsigned int)`.
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

__device__ unsigned int all(unsigned int);

__global__ void vote(unsigned int *input, unsigned int *result, int *flags) {
  int tx = threadIdx.x;
  result[tx] = all(input[tx]);          // the user's overload
  flags[tx] = any(tx >= 48) + all(tx >= 16) + __all_sync(0xffffffff, tx > 0);
}

int main() {
  std::vector<int> v(32, 1);
  bool a = std::all_of(v.begin(), v.end(), [](int x) { return x > 0; });
  bool b = std::any_of(v.begin(), v.end(), [](int x) { return x > 1; });
  return a && !b ? 0 : 1;
}
