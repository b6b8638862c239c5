/*
 * gmrace stand-in for cuFFT's host API, <cufft.h>: its types (kernels take
 * cufftComplex buffers), result codes and plan/execute functions, so host code
 * calling cuFFT type-checks.  Declarations only; values follow the cuFFT
 * documentation.
 */
#ifndef GMRACE_CUFFT_H
#define GMRACE_CUFFT_H

#include "cuComplex.h"

#define CUFFT_VER_MAJOR 11
#define CUFFT_VER_MINOR 2
#define CUFFT_VER_PATCH 1
#define CUFFT_VERSION                                                          \
  (CUFFT_VER_MAJOR * 1000 + CUFFT_VER_MINOR * 100 + CUFFT_VER_PATCH)

typedef enum cufftResult_t {
  CUFFT_SUCCESS = 0x0,
  CUFFT_INVALID_PLAN = 0x1,
  CUFFT_ALLOC_FAILED = 0x2,
  CUFFT_INVALID_TYPE = 0x3,
  CUFFT_INVALID_VALUE = 0x4,
  CUFFT_INTERNAL_ERROR = 0x5,
  CUFFT_EXEC_FAILED = 0x6,
  CUFFT_SETUP_FAILED = 0x7,
  CUFFT_INVALID_SIZE = 0x8,
  CUFFT_UNALIGNED_DATA = 0x9,
  CUFFT_INCOMPLETE_PARAMETER_LIST = 0xA,
  CUFFT_INVALID_DEVICE = 0xB,
  CUFFT_PARSE_ERROR = 0xC,
  CUFFT_NO_WORKSPACE = 0xD,
  CUFFT_NOT_IMPLEMENTED = 0xE,
  CUFFT_LICENSE_ERROR = 0x0F,
  CUFFT_NOT_SUPPORTED = 0x10
} cufftResult;

typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
typedef int cufftHandle;

#define CUFFT_FORWARD -1
#define CUFFT_INVERSE 1

typedef enum cufftType_t {
  CUFFT_R2C = 0x2a,
  CUFFT_C2R = 0x2c,
  CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a,
  CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69
} cufftType;

typedef enum cufftCompatibility_t {
  CUFFT_COMPATIBILITY_FFTW_PADDING = 0x01
} cufftCompatibility;

#define GMRACE_FFT extern __host__ cufftResult

GMRACE_FFT cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
GMRACE_FFT cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type);
GMRACE_FFT cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz,
                       cufftType type);
GMRACE_FFT cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed,
                         int istride, int idist, int *onembed, int ostride,
                         int odist, cufftType type, int batch);
GMRACE_FFT cufftCreate(cufftHandle *handle);
GMRACE_FFT cufftMakePlan1d(cufftHandle plan, int nx, cufftType type,
                           int batch, size_t *workSize);
GMRACE_FFT cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type,
                           size_t *workSize);
GMRACE_FFT cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz,
                           cufftType type, size_t *workSize);
GMRACE_FFT cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed,
                             int istride, int idist, int *onembed, int ostride,
                             int odist, cufftType type, int batch,
                             size_t *workSize);
GMRACE_FFT cufftEstimate1d(int nx, cufftType type, int batch,
                           size_t *workSize);
GMRACE_FFT cufftGetSize(cufftHandle handle, size_t *workSize);
GMRACE_FFT cufftSetWorkArea(cufftHandle plan, void *workArea);
GMRACE_FFT cufftSetAutoAllocation(cufftHandle plan, int autoAllocate);
GMRACE_FFT cufftSetStream(cufftHandle plan, cudaStream_t stream);
GMRACE_FFT cufftDestroy(cufftHandle plan);
GMRACE_FFT cufftGetVersion(int *version);
GMRACE_FFT cufftExecC2C(cufftHandle plan, cufftComplex *idata,
                        cufftComplex *odata, int direction);
GMRACE_FFT cufftExecR2C(cufftHandle plan, cufftReal *idata,
                        cufftComplex *odata);
GMRACE_FFT cufftExecC2R(cufftHandle plan, cufftComplex *idata,
                        cufftReal *odata);
GMRACE_FFT cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata,
                        cufftDoubleComplex *odata, int direction);
GMRACE_FFT cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata,
                        cufftDoubleComplex *odata);
GMRACE_FFT cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata,
                        cufftDoubleReal *odata);

#undef GMRACE_FFT
#endif /* GMRACE_CUFFT_H */
