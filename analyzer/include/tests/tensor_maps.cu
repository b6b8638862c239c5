// Driver entry points and tensor maps: host code of Hopper-era kernels (a TMA descriptor built
// with cuTensorMapEncodeTiled, fetched through cudaGetDriverEntryPoint) type-checks, and a
// kernel taking the descriptor as a __grid_constant__-style parameter compiles to PTX.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

__global__ void touch(const CUtensorMap map, float *out) {
  out[threadIdx.x] = (float)map.opaque[threadIdx.x % CU_TENSOR_MAP_NUM_QWORDS];
}

void host(float *data, float *out) {
  void *fn = NULL;
  cudaDriverEntryPointQueryResult status;
  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault, &status);
  PFN_cuTensorMapEncodeTiled encode = (PFN_cuTensorMapEncodeTiled)fn;
  CUtensorMap map;
  cuuint64_t dims[2] = {64, 64};
  cuuint64_t strides[1] = {64 * sizeof(float)};
  cuuint32_t box[2] = {16, 16};
  cuuint32_t elem[2] = {1, 1};
  encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, data, dims, strides, box, elem,
         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, data, dims, strides, box,
                         elem, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  touch<<<1, 32>>>(map, out);
}
