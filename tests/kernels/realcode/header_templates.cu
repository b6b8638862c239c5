// A file of a library that includes the library's header of kernel templates and launches one
// of them. The other template is the header's, not this file's: this file neither names nor
// instantiates it, so it is not listed as a kernel the file fails to analyse. `fill_first`, which
// this file names in host code clang cannot read, is listed with that reason, and so is the
// kernel of `reduce_launch.cuh`, which a host template of that header launches (this file could
// instantiate it through the launcher).
#include <cuda_runtime.h>
#include "elementwise.cuh"
#include "reduce_launch.cuh"

void halve(float *d, int n) { scale<float><<<(n + 255) / 256, 256>>>(d, 0.5f, n); }

void reset(float *d) { fill_first<float><<<1, 32>>>(d, undeclared_zero); }
