// Virtual calls run the dynamic class's method. Before, `b->idx()` was the static target,
// `Base::idx`: `Derived::idx`'s read of `threadIdx.y` went unseen, the kernel ran on one
// thread, and every thread's write of `a[0]` was proved race-free. A call that may run an
// overrider is opaque now, and what its targets read keeps the launch's extents open.
struct Base {
  __device__ virtual unsigned idx() const { return 0; }
};

struct Derived : Base {
  __device__ unsigned idx() const override { return threadIdx.y; }
};

template <class T> struct Wrapped : Base {
  __device__ unsigned idx() const override { return blockIdx.z; }
};

struct Lone {
  __device__ virtual unsigned at() const { return 1; }
};

// May run `Derived::idx`: the block's `y` and the grid's `z` stay open, nothing is safe.
__global__ void dynamic(float *a, const Base *b) {
  unsigned t = b->idx();
  a[t + 1] = 1;
  a[0] = 2;
}

// From a method, through `this`: the same.
struct User : Base {
  __device__ void store(float *a) const { a[idx()] = 1; }
};

__global__ void through_this(float *a, const User *u) {
  u->store(a);
  a[0] = 2;
}

// Qualified, the call runs `Base::idx` only: every thread writes `a[1]` and `a[0]` on a
// launch of one thread, safe.
__global__ void qualified(float *a, const Base *b) {
  unsigned t = b->Base::idx();
  a[t + 1] = 1;
  a[0] = 2;
}

// No class of this file overrides `Lone::at`: the call is inlined, and each thread writes
// its own element.
__global__ void lone(float *a, const Lone *l) { a[l->at() + threadIdx.x] = 1; }
