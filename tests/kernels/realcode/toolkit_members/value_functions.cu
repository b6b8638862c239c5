// A toolkit's math functions end in libdevice functions that have no body here
// (`__frcp_rn` calls `__nv_frcp_rn`, `isfinite` calls `__nv_finitef`): functions of scalars,
// whose results are unknown values and nothing more. No warning says so; a user's own
// function without a body, which may do anything, still gets one.
#include <cuda_fp16.h>

__device__ float scale_of(float x);

__global__ void reciprocals(float *a) {
  float x = a[threadIdx.x];
  a[threadIdx.x] = __frcp_rn(x) + (isfinite(x) ? scale_of(x) : 0.f);
}
