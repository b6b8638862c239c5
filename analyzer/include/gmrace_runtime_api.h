/*
 * gmrace stand-in CUDA headers: host runtime API (declarations only).
 *
 * Internal part of gmrace_cuda.h.  Public names: <cuda_runtime_api.h>,
 * <cuda_runtime.h>, <driver_types.h>, <cuda_profiler_api.h>.
 *
 * gmrace only compiles the device side, so host functions are never
 * code-generated; they only have to type-check.  The C API is extern "C" as
 * in CUDA.  Functions that CUDA's device runtime (dynamic parallelism) also
 * offers are declared __host__ __device__ so device code calling them parses.
 * Enumerator values follow the CUDA documentation.
 */
#ifndef GMRACE_RUNTIME_API_H
#define GMRACE_RUNTIME_API_H

#include "gmrace_host_defines.h"
#include "gmrace_vector_types.h"
#include <stddef.h>

/* ======================================================================== */
/* Types (driver_types.h)                                                   */
/* ======================================================================== */

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorDeviceNotLicensed = 102,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

/* Driver entry points, as Hopper-era code fetches cuTensorMapEncodeTiled. */
enum cudaGetDriverEntryPointFlags {
  cudaEnableDefault = 0x0,
  cudaEnableLegacyStream = 0x1,
  cudaEnablePerThreadDefaultStream = 0x2
};
enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0,
  cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2
};

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* A subset of the device attributes queried with cudaDeviceGetAttribute. */
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

/* Opaque handles. */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct cudaArray *cudaArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

/* Flag values. */
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

struct cudaUUID_st {
  char bytes[16];
};
typedef struct cudaUUID_st cudaUUID_t;

/* Device properties.  Field names and types as in CUDA 11; the layout is not
 * meant to be binary compatible. */
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};

struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};

typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status,
                                     void *userData);
typedef void (*cudaHostFn_t)(void *userData);

/* ======================================================================== */
/* C API (cuda_runtime_api.h)                                               */
/* ======================================================================== */

/* Host-only entry points. */
#define GMRACE_RT extern __host__ cudaError_t CUDARTAPI
/* Entry points that the device runtime offers as well. */
#define GMRACE_RT_HD extern __host__ __device__ cudaError_t CUDARTAPI

extern "C" {

/* ---- errors and versions ---- */
GMRACE_RT_HD cudaGetLastError(void);
GMRACE_RT_HD cudaPeekAtLastError(void);
extern __host__ __device__ const char *CUDARTAPI
cudaGetErrorString(cudaError_t error);
extern __host__ __device__ const char *CUDARTAPI
cudaGetErrorName(cudaError_t error);
GMRACE_RT cudaDriverGetVersion(int *driverVersion);
GMRACE_RT_HD cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- device management ---- */
GMRACE_RT cudaSetDevice(int device);
GMRACE_RT_HD cudaGetDevice(int *device);
GMRACE_RT_HD cudaGetDeviceCount(int *count);
GMRACE_RT cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
GMRACE_RT_HD cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                    int device);
GMRACE_RT cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
GMRACE_RT cudaSetDeviceFlags(unsigned int flags);
GMRACE_RT cudaGetDeviceFlags(unsigned int *flags);
GMRACE_RT cudaDeviceReset(void);
GMRACE_RT_HD cudaDeviceSynchronize(void);
GMRACE_RT cudaThreadSynchronize(void);
GMRACE_RT cudaThreadExit(void);
GMRACE_RT cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
GMRACE_RT cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
GMRACE_RT cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
GMRACE_RT cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
GMRACE_RT_HD cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
GMRACE_RT cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                  int peerDevice);
GMRACE_RT cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
GMRACE_RT cudaDeviceDisablePeerAccess(int peerDevice);

/* ---- streams ---- */
GMRACE_RT cudaStreamCreate(cudaStream_t *pStream);
GMRACE_RT_HD cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                       unsigned int flags);
GMRACE_RT cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                       unsigned int flags, int priority);
GMRACE_RT_HD cudaStreamDestroy(cudaStream_t stream);
GMRACE_RT cudaStreamSynchronize(cudaStream_t stream);
GMRACE_RT cudaStreamQuery(cudaStream_t stream);
GMRACE_RT_HD cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                 unsigned int flags = 0);
GMRACE_RT cudaStreamAddCallback(cudaStream_t stream,
                                cudaStreamCallback_t callback, void *userData,
                                unsigned int flags);
GMRACE_RT cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                             void *userData);
GMRACE_RT cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                           int *greatestPriority);

/* ---- events ---- */
GMRACE_RT cudaEventCreate(cudaEvent_t *event);
GMRACE_RT_HD cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
GMRACE_RT_HD cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
GMRACE_RT cudaEventQuery(cudaEvent_t event);
GMRACE_RT cudaEventSynchronize(cudaEvent_t event);
GMRACE_RT_HD cudaEventDestroy(cudaEvent_t event);
GMRACE_RT cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- memory ---- */
GMRACE_RT_HD cudaMalloc(void **devPtr, size_t size);
GMRACE_RT cudaMallocManaged(void **devPtr, size_t size,
                            unsigned int flags = cudaMemAttachGlobal);
GMRACE_RT cudaMallocHost(void **ptr, size_t size);
GMRACE_RT cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
GMRACE_RT cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                          size_t height);
GMRACE_RT cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                       struct cudaExtent extent);
GMRACE_RT_HD cudaFree(void *devPtr);
GMRACE_RT cudaFreeHost(void *ptr);
GMRACE_RT cudaHostRegister(void *ptr, size_t size, unsigned int flags);
GMRACE_RT cudaHostUnregister(void *ptr);
GMRACE_RT cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                   unsigned int flags);
GMRACE_RT cudaMemGetInfo(size_t *free, size_t *total);
GMRACE_RT cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                   const void *ptr);

/* Graphics interoperability (the API-neutral part; <cuda_gl_interop.h> has
 * OpenGL's registrations). */
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
enum cudaGraphicsRegisterFlags {
  cudaGraphicsRegisterFlagsNone = 0,
  cudaGraphicsRegisterFlagsReadOnly = 1,
  cudaGraphicsRegisterFlagsWriteDiscard = 2,
  cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
  cudaGraphicsRegisterFlagsTextureGather = 8
};
enum cudaGraphicsMapFlags {
  cudaGraphicsMapFlagsNone = 0,
  cudaGraphicsMapFlagsReadOnly = 1,
  cudaGraphicsMapFlagsWriteDiscard = 2
};
GMRACE_RT cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource);
GMRACE_RT cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource,
                                          unsigned int flags);
GMRACE_RT cudaGetDriverEntryPoint(
    const char *symbol, void **funcPtr, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus = NULL);
GMRACE_RT cudaGraphicsMapResources(int count, cudaGraphicsResource_t *resources,
                                   cudaStream_t stream = 0);
GMRACE_RT cudaGraphicsUnmapResources(int count,
                                     cudaGraphicsResource_t *resources,
                                     cudaStream_t stream = 0);
GMRACE_RT cudaGraphicsResourceGetMappedPointer(void **devPtr, size_t *size,
                                               cudaGraphicsResource_t resource);

GMRACE_RT cudaMemcpy(void *dst, const void *src, size_t count,
                     enum cudaMemcpyKind kind);
GMRACE_RT_HD cudaMemcpyAsync(void *dst, const void *src, size_t count,
                             enum cudaMemcpyKind kind, cudaStream_t stream = 0);
GMRACE_RT cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                       size_t spitch, size_t width, size_t height,
                       enum cudaMemcpyKind kind);
GMRACE_RT_HD cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                               size_t spitch, size_t width, size_t height,
                               enum cudaMemcpyKind kind,
                               cudaStream_t stream = 0);
GMRACE_RT cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
                         int srcDevice, size_t count);
GMRACE_RT cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                              int srcDevice, size_t count,
                              cudaStream_t stream = 0);
GMRACE_RT cudaMemcpyToSymbol(const void *symbol, const void *src,
                             size_t count, size_t offset = 0,
                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
GMRACE_RT cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                               size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
GMRACE_RT cudaMemcpyToSymbolAsync(
    const void *symbol, const void *src, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream = 0);
GMRACE_RT cudaMemcpyFromSymbolAsync(
    void *dst, const void *symbol, size_t count, size_t offset,
    enum cudaMemcpyKind kind, cudaStream_t stream = 0);
GMRACE_RT cudaGetSymbolAddress(void **devPtr, const void *symbol);
GMRACE_RT cudaGetSymbolSize(size_t *size, const void *symbol);
GMRACE_RT cudaMemset(void *devPtr, int value, size_t count);
GMRACE_RT_HD cudaMemsetAsync(void *devPtr, int value, size_t count,
                             cudaStream_t stream = 0);
GMRACE_RT cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                       size_t height);
GMRACE_RT cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                               cudaStream_t stream = 0);

/* ---- execution control ---- */
GMRACE_RT cudaFuncSetCacheConfig(const void *func,
                                 enum cudaFuncCache cacheConfig);
GMRACE_RT cudaFuncSetSharedMemConfig(const void *func,
                                     enum cudaSharedMemConfig config);
GMRACE_RT_HD cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                   const void *func);
GMRACE_RT cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                               int value);
GMRACE_RT cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                           void **args, size_t sharedMem,
                           cudaStream_t stream);
GMRACE_RT cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                      dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
GMRACE_RT_HD cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);

/* ---- kernel launch configuration ----
 * `k<<<grid, block, shmem, stream>>>(args)` is type-checked by clang as a
 * call to the configuration function.  Without a CUDA installation clang 14
 * looks for cudaConfigureCall; with a CUDA >= 9.2 SDK it looks for
 * __cudaPushCallConfiguration.  Both are declared. */
GMRACE_RT cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                            cudaStream_t stream = 0);
extern __host__ unsigned __cudaPushCallConfiguration(dim3 gridDim,
                                                     dim3 blockDim,
                                                     size_t sharedMem = 0,
                                                     void *stream = 0);
GMRACE_RT cudaSetupArgument(const void *arg, size_t size, size_t offset);
GMRACE_RT cudaLaunch(const void *func);

/* ---- profiler (cuda_profiler_api.h) ---- */
GMRACE_RT cudaProfilerStart(void);
GMRACE_RT cudaProfilerStop(void);

} /* extern "C" */

#undef GMRACE_RT
#undef GMRACE_RT_HD

/* ======================================================================== */
/* C++ API (cuda_runtime.h): templated conveniences                         */
/* ======================================================================== */

#define GMRACE_RT_TEMPLATE static __inline__ __host__ cudaError_t

template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaMalloc(__gmr_T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaMallocManaged(__gmr_T **devPtr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaMallocHost(__gmr_T **ptr, size_t size,
                                  unsigned int flags = 0) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaHostAlloc(__gmr_T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaMallocPitch(__gmr_T **devPtr, size_t *pitch, size_t width,
                                   size_t height) {
  return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaHostGetDevicePointer(__gmr_T **pDevice, void *pHost,
                                            unsigned int flags) {
  return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

/* The symbol overloads take the __device__/__constant__ variable itself. */
template <class __gmr_T>
GMRACE_RT_TEMPLATE
cudaMemcpyToSymbol(const __gmr_T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE
cudaMemcpyFromSymbol(void *dst, const __gmr_T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE
cudaMemcpyToSymbolAsync(const __gmr_T &symbol, const void *src, size_t count,
                        size_t offset = 0,
                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                        cudaStream_t stream = 0) {
  return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset,
                                   kind, stream);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE
cudaMemcpyFromSymbolAsync(void *dst, const __gmr_T &symbol, size_t count,
                          size_t offset = 0,
                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                          cudaStream_t stream = 0) {
  return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset,
                                     kind, stream);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaGetSymbolAddress(void **devPtr, const __gmr_T &symbol) {
  return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaGetSymbolSize(size_t *size, const __gmr_T &symbol) {
  return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

/* Kernel-function overloads: a __global__ function does not convert to
 * const void * implicitly. */
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaFuncSetCacheConfig(__gmr_T *func,
                                          enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaFuncSetSharedMemConfig(__gmr_T *func,
                                              enum cudaSharedMemConfig config) {
  return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
                                         __gmr_T *func) {
  return ::cudaFuncGetAttributes(attr, (const void *)func);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaFuncSetAttribute(__gmr_T *func, enum cudaFuncAttribute attr,
                                        int value) {
  return ::cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaLaunchKernel(__gmr_T *func, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem = 0,
                                    cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaLaunchCooperativeKernel(__gmr_T *func, dim3 gridDim,
                                               dim3 blockDim, void **args,
                                               size_t sharedMem = 0,
                                               cudaStream_t stream = 0) {
  return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim,
                                       args, sharedMem, stream);
}
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, __gmr_T func, int blockSize, size_t dynamicSMemSize) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}
/* Stand-in body (the real one searches the occupancy calculator): reports
 * the block-size limit, or 256. */
template <class __gmr_T>
GMRACE_RT_TEMPLATE cudaOccupancyMaxPotentialBlockSize(
    int *minGridSize, int *blockSize, __gmr_T func, size_t dynamicSMemSize = 0,
    int blockSizeLimit = 0) {
  (void)func;
  (void)dynamicSMemSize;
  *minGridSize = 1;
  *blockSize = blockSizeLimit > 0 ? blockSizeLimit : 256;
  return cudaSuccess;
}

#undef GMRACE_RT_TEMPLATE

#endif /* GMRACE_RUNTIME_API_H */
