// A flattened two-dimensional grid index guarded by the array's length, as in HeCBench's
// rayleighBenardConvection: two blocks meet only where
// `(gridDim.x * blockIdx.y + blockIdx.x) * blockDim.x` wraps around 2^32, under a grid of
// billions of threads. Every grid width under which both threads pass the guard is then one
// under which they race, yet no program launches such a grid on purpose: `scale`'s races are
// conditional, not definite. `shift` reads the element the next thread writes: a race under
// any grid, definite. With a toolkit's headers, the built-in variables inside the macro were read
// as nothing (libclang names no member of the toolkit's `threadIdx.x`, and the tokens of an
// expression spelled in a macro run on to its use): one thread, and both races proved away.
#include <stdlib.h>

#define THREADID (((gridDim.x) * (blockIdx.y) + (blockIdx.x)) * (blockDim.x) + (threadIdx.x))

__global__ void scale(float *a, const float *b) {
  if (THREADID < 256)
    a[THREADID] = a[THREADID] * b[THREADID]; // RACE
}

__global__ void shift(float *a) {
  if (THREADID < 255)
    a[THREADID] = a[THREADID + 1]; // RACE
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 1;
  dim3 grid(atoi(argv[1]), atoi(argv[2]));
  float *a, *b;
  cudaMalloc(&a, 256 * sizeof(float));
  cudaMalloc(&b, 256 * sizeof(float));
  scale<<<grid, 256>>>(a, b);
  shift<<<grid, 256>>>(a);
  return 0;
}
