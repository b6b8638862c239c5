// With a toolkit's headers, `threadIdx.x` is a property libclang names nothing for, so its
// member is read from the tokens where it is spelled. Here the object and the member are a
// macro's two arguments: the tokens at the expression's start are `threadIdx, x`, which say
// nothing sure. The member is taken as any of `x`, `y` and `z` (read as nothing, the kernel
// would read no dimension, run one thread, and its race would be proved away). The stand-ins
// declare real fields, and there the race is found.
#define AT(v, axis) (v.axis)

__global__ void shift(float *a) {
  unsigned i = AT(blockIdx, x) * AT(blockDim, x) + AT(threadIdx, x);
  a[i] = a[i + 1];
}
