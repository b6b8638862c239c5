// Temporaries kept by a reference, and objects a statement's header declares: their
// destructors run when the reference's block or the statement ends. Before, the kept
// temporary was never destroyed and a header's object was destroyed at the end of the
// enclosing block, past its barrier: each read of `s` below was proved race-free. Where the
// destructor's pointer is loaded back from the object (a thread's own memory, an unknown
// value here) the read is `unknown`, not racy.

struct Flush {
  int *p;
  __device__ ~Flush() { p[threadIdx.x] = 1; } // RACE (with the read in `kept_by_reference`)
};

// The temporary lives to the end of the block, after the barrier: its write races with the
// neighbour's read (launched below, so the race is found).
__global__ void kept_by_reference(int *out) {
  __shared__ int s[64];
  {
    const Flush &f = Flush{s};
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64]; // RACE
  }
}

// An object of an `if`'s init statement is destroyed when the `if` ends, before the read.
__global__ void if_header(int *out, int n) {
  __shared__ int s[64];
  {
    if (Flush g{s}; n > 0) {
      n = 0;
    }
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
    __syncthreads();
  }
}

// ... and one of a `for`'s init statement when the loop ends.
__global__ void for_header(int *out, int n) {
  __shared__ int s[64];
  {
    for (Flush g{s}; n > 0; n--) {
    }
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
    __syncthreads();
  }
}

// A loop's condition variable is destroyed on each test: not modelled, so the loop is
// unsupported and nothing beside it is safe.
struct Flag {
  int *p;
  __device__ ~Flag() { p[threadIdx.x] = 1; }
  __device__ explicit operator bool() const { return p[0] > 0; }
};

__global__ void condition_variable(int *out) {
  __shared__ int s[64];
  while (Flag f{s}) {
  }
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// libclang does not list a `switch`'s init statement, which was skipped: the `switch` is
// unsupported now, and nothing beside it is safe.
__global__ void switch_init(int *out, int n) {
  __shared__ int s[64];
  switch (s[threadIdx.x] = 1; n) {
  default:
    break;
  }
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// A temporary of a scalar bound to a reference holds its value.
__global__ void scalar_reference(float *a) {
  const unsigned &r = threadIdx.x * 2 + 1;
  a[r] = 1;
  a[0] = 2; // RACE
}

// A variable initialised from a temporary of its own class is that object, not a temporary:
// no destructor runs at the end of its statement, so the read before the barrier is beside
// no opaque code.
__global__ void own_initializer(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = 0;
  {
    Flush f = Flush{out};
    __syncthreads();
    out[threadIdx.x + 64] = s[(threadIdx.x + 1) % 64];
  }
}

void run(int *out) { kept_by_reference<<<1, 64>>>(out); }

// An `if`'s init expression runs before the condition. Before, it was taken for the condition
// (always true here), the condition for the `then` branch and the `then` branch for an `else`.
__global__ void if_init_expression(float *a, int n) {
  if (a[threadIdx.x + 1] = 1; n > 0) {
    a[0] = 2; // RACE
  }
}
