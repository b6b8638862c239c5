// Stand-in headers in an unusual order, before and after system headers.
#include <device_launch_parameters.h>
#include <vector_types.h>
#include <stdio.h>
#include <device_functions.h>
#include <math_functions.h>
#include <cuda.h>
#include <cmath>
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <sm_20_atomic_functions.h>
#include <sm_30_intrinsics.h>
#include <sm_32_intrinsics.h>
#include <sm_35_intrinsics.h>
#include <sm_61_intrinsics.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <vector_types.h>

__global__ void k(int *p) {
  p[threadIdx.x] = __shfl_sync(0xffffffff, atomicAdd(p, 1), 0) + (int)sqrtf(2.0f) +
                  __dp4a(p[1], p[2], 0) + __ldg(p + 3);
}

int main() {
  CUdevice dev;
  cuInit(0);
  cuDeviceGet(&dev, 0);
  int *d;
  cudaMalloc(&d, 4);
  cudaProfilerStart();
  k<<<1, 32>>>(d);
  cudaProfilerStop();
  return 0;
}
