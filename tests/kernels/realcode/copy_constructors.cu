// A copy or move constructor with a body runs where C++ copies: an argument passed by value,
// a variable initialised from another. Before, every copy was a copy of bytes: the writes
// below were missing and each read of `s` was proved race-free.

struct Tracked {
  int *p;
  __device__ Tracked(int *q) : p(q) {}
  __device__ Tracked(const Tracked &o) : p(o.p) { p[threadIdx.x] = 1; } // RACE
};

__device__ int use(Tracked t) { return 0; }

__global__ void argument_by_value(int *out) {
  __shared__ int s[64];
  Tracked a(s);
  use(a);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64]; // RACE
}

__global__ void initialised_from_another(int *out) {
  __shared__ int s[64];
  Tracked a(s);
  Tracked b = a;
  out[threadIdx.x + 64] = s[(threadIdx.x + 2) % 64]; // RACE
}

// An implicit copy constructor copies each member with the member's own constructor; that
// runs unmodelled here (an opaque statement), so the read is unknown.
struct Holder {
  Tracked t;
  int k;
};

__device__ int use_holder(Holder h) { return h.k; }

__global__ void member_of_implicit_copy(int *out) {
  __shared__ int s[64];
  Holder h{Tracked(s), 1};
  use_holder(h);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// `return c;` may construct `c` in the caller's slot and copy nothing (clang does): the
// constructor is opaque there, neither run nor left out.
__device__ Tracked make(int *s) {
  Tracked c(s);
  return c;
}

__global__ void returned_local(int *out) {
  __shared__ int s[64];
  Tracked a = make(s);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

void run(int *out) {
  argument_by_value<<<1, 64>>>(out);
  initialised_from_another<<<1, 64>>>(out);
  member_of_implicit_copy<<<1, 64>>>(out);
  returned_local<<<1, 64>>>(out);
}
