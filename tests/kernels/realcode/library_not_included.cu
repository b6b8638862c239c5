// C++ library headers are precompiled for a file only when it includes each of them: this one
// names <map> only for Windows. Were <map> read anyway, `map` below would be ambiguous
// (`using namespace std`) and the kernel refused; read as nvcc reads it, the kernel's
// neighbour read races with the write.
#ifdef _WIN32
#include <map>
#endif
#include <vector>
#include <cuda_runtime.h>

using namespace std;

const int map = 1;

__global__ void shift(int *a) {
  a[threadIdx.x] = a[threadIdx.x + map]; // RACE
}

int main() {
  vector<int> h(65);
  int *d;
  cudaMalloc(&d, h.size() * sizeof(int));
  shift<<<1, 64>>>(d);
  return 0;
}
