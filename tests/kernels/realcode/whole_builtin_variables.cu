// The built-in variables used whole, as code that hands them to helpers writes them:
// `uint3 t = threadIdx;`, `first(threadIdx)`, `dim3 b = blockDim;`. In gmrace's stand-in
// headers they are plain `uint3` and `dim3` objects; used whole, they were read as memory,
// no dimension counted as read, each kernel ran on one thread, and the write every thread
// makes to `a[0]` was proved race-free. Each use is now a thread's own object holding the
// three members, as a toolkit's conversion to `uint3` makes one. (What is read back from it
// is a value read from memory, unknown to the analysis, with either set of headers.)
__global__ void copied(float *a) {
  uint3 t = threadIdx;
  a[0] = t.x; // RACE
}

__device__ unsigned first(const uint3 &t) { return t.x; }

__global__ void by_reference(float *a) {
  unsigned x = first(threadIdx);
  a[0] = x; // RACE
}

__global__ void extents(float *a) {
  dim3 n = blockDim;
  a[0] = n.x * n.y; // RACE
}
