// PTX special registers with one `%` (`%globaltimer` in a project header, `%smid` here): nvcc
// compiles them, clang refuses the asm string. Both are respelled for the analysis, which reads
// inline assembly as opaque, so the kernels are analysed rather than the file refused.
#include "ptx_timer.h"

__device__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %smid;" : "=r"(id));
  return id;
}

__global__ void time_each(long long *out, const float *in, float *res) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long start = global_time();
  res[i] = in[i] * 2.0f;
  out[i] = global_time() - start;
}

// Every thread of the grid writes one slot with its SM's number.
__global__ void where_run(unsigned *last_sm) {
  last_sm[0] = sm_id(); // RACE
}

int main() {
  long long *t;
  float *in, *res;
  unsigned *sm;
  time_each<<<64, 256>>>(t, in, res);
  where_run<<<64, 256>>>(sm);
}
