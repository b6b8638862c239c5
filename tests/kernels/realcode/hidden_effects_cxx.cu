// C++ and GNU constructs whose code ran unseen. Before, each kernel below was proved
// race-free.

// A braced list that leaves a member out initialises it from its default member
// initializer, which reads `threadIdx.y` (before: zero-filled, and the kernel ran on one
// thread).
struct Row {
  int first;
  unsigned t = threadIdx.y;
};

__global__ void default_member_in_list(float *a) {
  Row r{1};
  a[r.t + 1] = 1;
  a[0] = 2; // RACE
}

// A statement expression's statements run (before: clang folded it to its value, 2).
__global__ void statement_expression(int *out) {
  __shared__ int s[64];
  int v = ({
    s[threadIdx.x] = 1; // RACE
    2;
  });
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64] + v; // RACE
}

// A structured binding is not modelled: its initializer's write is not lost, and nothing
// beside it is safe (before: the declaration was skipped).
struct Pair {
  int *x;
  int y;
};

__device__ Pair mark(int *s) {
  s[threadIdx.x] = 1;
  return Pair{s, 2};
}

__global__ void structured_binding(int *out) {
  __shared__ int s[64];
  auto [x, y] = mark(s);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64] + y;
}
