// Loops written in macros, as projects write them. A `for` whose header leaves a part out is
// split at its two `;`, found by its tokens; in a macro, those tokens are where the macro is
// defined and the parts are where it is used, so they cannot be compared, and the loop is
// unsupported (a warning; its accesses are left out). Its reads of `threadIdx` and
// `blockDim` still count: before, the kernel read neither, ran on one thread, and the write
// that every thread makes after the loop was proved race-free. It is `unknown` now: nothing
// beside an unsupported statement is proved, and no witness can be replayed through it.
#define FOR_EACH(i, n) for (int i = threadIdx.x; i < n;)

__global__ void reset(float *a, int n) {
  FOR_EACH(i, n) {
    a[i] = 0;
    i += blockDim.x;
  }
  a[0] = 1;
}

__global__ void reset_in_place(float *a, int n) {
  for (int i = threadIdx.x; i < n;) {
    a[i] = 0;
    i += blockDim.x;
  }
}
