// Kernels written for GPUVerify: pre/postconditions, assertions, loop
// invariants in for/while conditions, access predicates, two-thread
// predicates, barrier invariants and axioms.
#include <cuda.h>

#define N 256

__axiom(blockDim.x == 256);
__axiom(gridDim.x == 1)

__device__ int helper(int x) {
  __requires(x >= 0);
  __ensures(__return_val_int() >= 0);
  __ensures(__return_val_int() == __old_int(x) + 1);
  return x + 1;
}

__global__ void reduce(int *A, int *out) {
  __requires(blockDim.x == 256);
  __requires(gridDim.x == 1);
  __global_requires(__is_pow2(blockDim.x));
  __shared__ int tmp[N];
  unsigned tid = threadIdx.x;

  tmp[tid] = A[tid];
  __syncthreads();

  for (unsigned d = blockDim.x / 2;
       __invariant(__is_pow2(d)),
       __invariant(d <= blockDim.x / 2),
       __global_invariant(__implies(__write(tmp), tid < 2 * d)),
       __invariant(__write_implies(tmp, __write_offset_bytes(tmp) / sizeof(int) == tid)),
       __invariant(__read_implies(tmp, __read_offset_bytes(tmp) / sizeof(int) < blockDim.x)),
       __invariant(__no_read(A)),
       d > 0;
       d >>= 1) {
    if (tid < d)
      tmp[tid] += tmp[tid + d];
    __barrier_invariant(__implies(tid < d, tmp[tid] >= 0), tid);
    __barrier_invariant(tmp[tid] >= 0, tid, tid + 1);
    __syncthreads();
  }

  int i = 0;
  while (__invariant(i <= 4), __invariant(__uniform_int(i)), i < 4) {
    i++;
  }

  __assert(i == 4);
  __global_assert(__implies(__same_group, __uniform_bool(i == 4)));
  __assume(tid < N);
  __assert(__distinct_int(tid));
  __assert(__implies(__enabled(), __other_int((int)tid) != (int)tid || __same_group));
  __assert(__no_write(A) && __no_atomic(A) && !__atomic(out));
  __assert(__atomic_implies(out, true));
  __assert(__add_noovfl(tid, 1u) && __add_noovfl(1, 2, 3) && __mul_noovfl(tid, 2u));
  __assert(__ptr_base(A) != __ptr_base(out) || __ptr_offset_bytes(A) == 0);
  __assert((__uniform_unsigned(blockDim.x) && __distinct_unsigned(tid)) ||
           __other_unsigned(tid) == tid || __distinct_block);
  __assert(__ite(tid < 2, 1, 2) > 0);
  __candidate_invariant(true);
  __function_wide_invariant(__read_implies(A, true));
  __assert_mod(true);

  if (tid == 0)
    out[0] = helper(tmp[0]);
}
