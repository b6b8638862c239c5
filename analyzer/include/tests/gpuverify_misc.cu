// GPUVerify test-suite idioms: "cuda.h" giving Cooperative Groups, fresh
// arrays, function-pointer return values, while-loop invariants, axioms
// without trailing semicolons.
#include "cuda.h"

using namespace cooperative_groups;

__axiom(blockDim.x == 64)

struct S {
  char *p;
};

typedef float (*funcType)(float *, unsigned int);

__device__ float twice(float *v, unsigned int i) { return v[i] * 2.0f; }

__device__ funcType pick(int i) {
  __requires(i != 0);
  __ensures(__return_val_funptr(funcType) == twice);
  return twice;
}

__global__ void fresh(S q, float *v) {
  __requires_fresh_array(q.p);
  q.p[threadIdx.x + blockIdx.x * blockDim.x] = 42;
  grid_group g = this_grid();
  thread_block b = this_thread_block();
  unsigned i = 0;
  while (__global_invariant(__write_implies(v, __write_offset_bytes(v) == 0)),
         __invariant(i <= 8), i < 8) {
    synchronize(b);
    i++;
  }
  synchronize(g);
  if (threadIdx.x == 0)
    v[0] = pick(1)(v, 0);
}
