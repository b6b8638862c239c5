// Calls into code this file does not hold may read any built-in variable. Before, none of
// these kernels read `threadIdx.y` for the analysis: each ran on one thread, and every
// thread's write of `a[0]` was proved race-free. Now each of their launch's extents is open
// (the race is replayed where the call is not opaque).

// A device function defined in another file (`-rdc=true` builds link it in).
extern __device__ unsigned row_elsewhere();

__global__ void declared_only(float *a) {
  unsigned t = row_elsewhere();
  a[t + 1] = 1;
  a[0] = 2; // RACE
}

// A pointer to a method: no function of the file is taken as its target.
struct Rows {
  __device__ unsigned row() const { return threadIdx.y; }
};
typedef unsigned (Rows::*RowOf)() const;

__global__ void member_pointer(float *a, RowOf of) {
  Rows r;
  unsigned t = (r.*of)();
  a[t + 1] = 1;
  a[0] = 2;
}

// A function pointer whose type no function of the file has.
typedef unsigned (*Pick)(int);

__global__ void foreign_pointer(float *a, Pick pick) {
  unsigned t = pick(3);
  a[t + 1] = 1;
  a[0] = 2;
}
