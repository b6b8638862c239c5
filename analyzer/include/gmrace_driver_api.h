/*
 * gmrace stand-in CUDA headers: a small subset of the driver API (cuda.h).
 *
 * Internal part of gmrace_cuda.h.  Public name: <cuda.h>.
 * Host-only declarations; enough for host code that loads modules and
 * launches kernels by hand to type-check.  Enumerator values follow the CUDA
 * documentation.
 */
#ifndef GMRACE_DRIVER_API_H
#define GMRACE_DRIVER_API_H

#include "gmrace_host_defines.h"
#include <stddef.h>

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
/* Texture and surface objects: the runtime API's cudaTextureObject_t and
 * cudaSurfaceObject_t are these same 64-bit handles, so tex2D<float>(CUtexObject,
 * ...) reads through the same overloads. */
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

extern "C" {
/* Tensor maps (TMA), built on the host for Hopper's bulk copies. */
/* cuuint32_t and cuuint64_t: gmrace_device_functions.h (clang's intrinsics use them). */
#define CU_TENSOR_MAP_NUM_QWORDS 16
typedef struct CUtensorMap_st {
  alignas(64) cuuint64_t opaque[CU_TENSOR_MAP_NUM_QWORDS];
} CUtensorMap;
typedef enum CUtensorMapDataType_enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32,
  CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ
} CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B,
  CU_TENSOR_MAP_INTERLEAVE_32B
} CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B,
  CU_TENSOR_MAP_SWIZZLE_128B
} CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B
} CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} CUtensorMapFloatOOBfill;

extern __host__ CUresult CUDAAPI cuInit(unsigned int flags);
extern __host__ CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);
extern __host__ CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
extern __host__ CUresult CUDAAPI cuDeviceGetCount(int *count);
extern __host__ CUresult CUDAAPI cuDeviceGetName(char *name, int len,
                                                 CUdevice dev);
extern __host__ CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice dev);
extern __host__ CUresult CUDAAPI cuCtxCreate(CUcontext *pctx,
                                             unsigned int flags, CUdevice dev);
extern __host__ CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
extern __host__ CUresult CUDAAPI cuCtxSynchronize(void);
extern __host__ CUresult CUDAAPI cuModuleLoad(CUmodule *module,
                                              const char *fname);
extern __host__ CUresult CUDAAPI cuModuleLoadData(CUmodule *module,
                                                  const void *image);
extern __host__ CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
extern __host__ CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc,
                                                     CUmodule hmod,
                                                     const char *name);
extern __host__ CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr,
                                                   size_t *bytes, CUmodule hmod,
                                                   const char *name);
extern __host__ CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
extern __host__ CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
extern __host__ CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice,
                                              const void *srcHost,
                                              size_t ByteCount);
extern __host__ CUresult CUDAAPI cuMemcpyDtoH(void *dstHost,
                                              CUdeviceptr srcDevice,
                                              size_t ByteCount);
extern __host__ CUresult CUDAAPI cuMemsetD32(CUdeviceptr dstDevice,
                                             unsigned int ui, size_t __count);
extern __host__ CUresult CUDAAPI cuLaunchKernel(
    CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
    unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
    unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
    void **kernelParams, void **extra);
extern __host__ CUresult CUDAAPI cuStreamCreate(CUstream *phStream,
                                                unsigned int Flags);
extern __host__ CUresult CUDAAPI cuStreamDestroy(CUstream hStream);
extern __host__ CUresult CUDAAPI cuStreamSynchronize(CUstream hStream);
extern __host__ CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill);
extern __host__ CUresult CUDAAPI cuGetErrorString(CUresult error,
                                                  const char **pStr);
extern __host__ CUresult CUDAAPI cuGetErrorName(CUresult error,
                                                const char **pStr);
} /* extern "C" */

#endif /* GMRACE_DRIVER_API_H */
