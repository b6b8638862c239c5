// What C++ runs for an object without a call in the source. Before, none of it was in the
// IR: each kernel below ran on one thread, and every thread's write of `a[0]` was proved
// race-free.

// A default member initializer, run by the implicit constructor.
struct Index {
  unsigned t = threadIdx.y;
};

__global__ void member_initializer(float *a) {
  Index i;
  a[i.t + 1] = 1;
  a[0] = 2; // RACE
}

// ... and by a constructor whose list leaves the member out.
struct Pair {
  unsigned t = threadIdx.y;
  unsigned u;
  __device__ Pair() : u(3) {}
};

__global__ void listed_constructor(float *a) {
  Pair p;
  a[p.t + p.u] = 1;
  a[0] = 2; // RACE
}

// A base's and a member's default member initializers and constructors.
struct Derived : Index {};

struct Counter {
  float *out;
  __device__ Counter() : out(nullptr) {}
};

struct Holder {
  Counter c;
  unsigned z = blockIdx.z;
};

__global__ void bases_and_members(float *a) {
  Derived d;
  Holder h;
  a[0] = 2; // RACE
}

// A destructor writes global memory at the end of the object's block.
struct Flush {
  float *out;
  __device__ ~Flush() { out[threadIdx.x] = 1; }
};

__global__ void destructor(float *a) {
  {
    Flush f{a};
  }
  a[0] = 2; // RACE
}

// A `return` past an object with a destructor: the destructor is opaque there, and what it
// reads still opens the block's `x`, where every thread writes `a[1]`.
__global__ void destructor_on_return(float *a, int n) {
  Flush f{a + 64};
  if (n > 0)
    return;
  a[1] = 2; // RACE
}

// A default argument, evaluated at the call.
__device__ unsigned row(unsigned r = threadIdx.y) { return r; }

__global__ void default_argument(float *a) {
  a[row() + 1] = 1;
  a[0] = 2; // RACE
}

// A temporary's destructor runs at the end of its statement, and `delete` runs the destructor
// of the object's dynamic class: both are opaque, and what they read keeps an extent open.
__global__ void temporary(float *a) {
  Flush{a + 64};
  a[1] = 2;
}

struct Node {
  __device__ virtual ~Node() {}
};

struct Logged : Node {
  float *out;
  __device__ ~Logged() override { out[threadIdx.z] = 1; }
};

__global__ void deleted(float *a, Node *n) {
  delete n;
  a[1] = 2; // RACE
}
