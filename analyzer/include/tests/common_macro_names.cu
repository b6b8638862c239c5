// Compiled by check-headers.sh with user macros that kernels commonly define (-DN, -DT, ...):
// the headers must not use those names for their own parameters.
// check-flags: -DN=1 -DT=2 -DU=3 -DM=4 -DK=5 -DW=6 -DH=7 -DSize=8 -DOp=9 -DGroup=10 -DBLOCK_SIZE=11 -DWIDTH=12 -DX=1 -DY=2 -DS=3 -DR=4 -DV=5 -DA=6 -DB=7 -DC=8 -DD=9
#include <cuda.h>
#include <cooperative_groups.h>
#include <cuda_fp8.h> /* and cuda_fp16.h, cuda_bf16.h, gmrace_half_ops.h */
__global__ void k(int *a) { a[threadIdx.x] = N + T + U + M + K + W + H + Size + Op + Group; }
