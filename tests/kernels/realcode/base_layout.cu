// Bases in an object's layout, and reads through places the front end does not know.

// A copy of a class whose data all lie in its base: before, the copy had no leaves and made
// no access, so the write every thread makes to `out[0]` was missing.
struct Base {
  int x;
};

struct Derived : Base {};

__global__ void copy_of_derived(Derived *out, Derived v) {
  if (threadIdx.x < 1000)
    out[0] = v; // RACE
}

// A second base lies past the first, where libclang 19 gives no offset: its members and
// copies of the whole object are not modelled. Before, `b` was placed at offset 0 and the
// copy left out both bases' bytes, so the neighbour's write of `b` was proved race-free.
struct A {
  int a;
};

struct B {
  int b;
};

struct AB : A, B {
  int c;
};

__global__ void second_base(AB *out) {
  __shared__ AB s[64];
  s[threadIdx.x].b = threadIdx.x;
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

// A read through a reference the front end cannot place (a conditional lvalue) still reads:
// the write beside it is not proved race-free (before, the read vanished and it was).
__global__ void read_through_unknown_place(int *o, int c) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  int &r = c ? s[(threadIdx.x + 1) % 64] : s[(threadIdx.x + 2) % 64];
  o[threadIdx.x] = r;
}
