// A thread's index read through inline PTX's special registers, as code that wants the raw
// register writes it. `mov.u32 %0, %%tid.x;` is modelled as `threadIdx.x`. Before, neither
// statement read a built-in variable for the analysis: both kernels ran on one thread, and
// every thread's write of `a[0]` was proved race-free; so was a call of clang's builtin.
__device__ unsigned thread_x() {
  unsigned r;
  asm("mov.u32 %0, %%tid.x;" : "=r"(r));
  return r;
}

__global__ void moved(float *a) {
  unsigned t = thread_x();
  a[t + 1] = 1;
  a[0] = 2; // RACE
}

// An instruction that computes with the register gives an unknown value; the block's `y`
// stays open, since the statement reads it, and every thread's write of `a[0]` races.
__global__ void computed(float *a) {
  unsigned r;
  asm("{ .reg .u32 t; mov.u32 t, %%tid.y; add.u32 %0, t, 1; }" : "=r"(r));
  a[0] = r; // RACE
}

// clang's builtin for the same register, with which its CUDA headers define `threadIdx.x`
// (code built with clang alone can call it).
__global__ void clang_builtin(float *a) {
  unsigned t = __nvvm_read_ptx_sreg_tid_x();
  a[t + 1] = 1;
  a[0] = 2; // RACE
}
