// A kernel whose definition comes from a macro cannot be split into body and wrapper.
#define KERNEL(name) __global__ void name(float *a) { a[threadIdx.x] = 0.0f; }
KERNEL(zero)
