/*
 * gmrace stand-in for cuBLAS's host API (<cublas_api.h>, included by
 * <cublas_v2.h> and <cublas.h>): its handle, status and mode types with the
 * documented values, and its functions, so that host code calling cuBLAS
 * type-checks and the launches around the calls are read.  The functions take
 * any arguments (`...`): gmrace reads none of them, and one declaration serves
 * the v2 API, its `_v2` names and the legacy API alike.
 */
#ifndef GMRACE_CUBLAS_API_H
#define GMRACE_CUBLAS_API_H

#include "cuComplex.h"
#include "cuda_fp16.h"
#include "driver_types.h"
#include "library_types.h"

#define CUBLAS_VER_MAJOR 12
#define CUBLAS_VER_MINOR 4
#define CUBLAS_VER_PATCH 5
#define CUBLAS_VERSION                                                         \
  (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef cublasStatus_t cublasStatus;

typedef enum {
  CUBLAS_FILL_MODE_LOWER = 0,
  CUBLAS_FILL_MODE_UPPER = 1,
  CUBLAS_FILL_MODE_FULL = 2
} cublasFillMode_t;

typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;

typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;

typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2,
  CUBLAS_OP_HERMITAN = 2,
  CUBLAS_OP_CONJG = 3
} cublasOperation_t;

typedef enum {
  CUBLAS_POINTER_MODE_HOST = 0,
  CUBLAS_POINTER_MODE_DEVICE = 1
} cublasPointerMode_t;

typedef enum {
  CUBLAS_ATOMICS_NOT_ALLOWED = 0,
  CUBLAS_ATOMICS_ALLOWED = 1
} cublasAtomicsMode_t;

typedef enum {
  CUBLAS_GEMM_DFALT = -1,
  CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_ALGO0 = 0,
  CUBLAS_GEMM_ALGO1 = 1,
  CUBLAS_GEMM_ALGO2 = 2,
  CUBLAS_GEMM_ALGO3 = 3,
  CUBLAS_GEMM_ALGO4 = 4,
  CUBLAS_GEMM_ALGO5 = 5,
  CUBLAS_GEMM_ALGO6 = 6,
  CUBLAS_GEMM_ALGO7 = 7,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100
} cublasGemmAlgo_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

typedef cudaDataType cublasDataType_t;

struct cublasContext;
typedef struct cublasContext *cublasHandle_t;

/* A function of the API under its name and its `_v2` name. */
#define GMRACE_BLAS(name)                                                      \
  extern __host__ cublasStatus_t name(...);                                    \
  extern __host__ cublasStatus_t name##_v2(...)
/* One routine in each precision: cublasSaxpy, cublasDaxpy, cublasCaxpy, ... */
#define GMRACE_BLAS_SDCZ(op)                                                   \
  GMRACE_BLAS(cublasS##op);                                                    \
  GMRACE_BLAS(cublasD##op);                                                    \
  GMRACE_BLAS(cublasC##op);                                                    \
  GMRACE_BLAS(cublasZ##op)

GMRACE_BLAS(cublasCreate);
GMRACE_BLAS(cublasDestroy);
GMRACE_BLAS(cublasGetVersion);
GMRACE_BLAS(cublasGetProperty);
GMRACE_BLAS(cublasSetStream);
GMRACE_BLAS(cublasGetStream);
GMRACE_BLAS(cublasSetWorkspace);
GMRACE_BLAS(cublasSetPointerMode);
GMRACE_BLAS(cublasGetPointerMode);
GMRACE_BLAS(cublasSetAtomicsMode);
GMRACE_BLAS(cublasGetAtomicsMode);
GMRACE_BLAS(cublasSetMathMode);
GMRACE_BLAS(cublasGetMathMode);
GMRACE_BLAS(cublasSetVector);
GMRACE_BLAS(cublasGetVector);
GMRACE_BLAS(cublasSetMatrix);
GMRACE_BLAS(cublasGetMatrix);
GMRACE_BLAS(cublasSetVectorAsync);
GMRACE_BLAS(cublasGetVectorAsync);
GMRACE_BLAS(cublasSetMatrixAsync);
GMRACE_BLAS(cublasGetMatrixAsync);
GMRACE_BLAS(cublasInit);
GMRACE_BLAS(cublasShutdown);
GMRACE_BLAS(cublasGetError);
GMRACE_BLAS(cublasAlloc);
GMRACE_BLAS(cublasFree);
extern __host__ const char *cublasGetStatusName(cublasStatus_t status);
extern __host__ const char *cublasGetStatusString(cublasStatus_t status);

GMRACE_BLAS(cublasIsamax);
GMRACE_BLAS(cublasIdamax);
GMRACE_BLAS(cublasIcamax);
GMRACE_BLAS(cublasIzamax);
GMRACE_BLAS(cublasIsamin);
GMRACE_BLAS(cublasIdamin);
GMRACE_BLAS(cublasIcamin);
GMRACE_BLAS(cublasIzamin);
GMRACE_BLAS_SDCZ(axpy);
GMRACE_BLAS_SDCZ(scal);
GMRACE_BLAS_SDCZ(copy);
GMRACE_BLAS_SDCZ(swap);
GMRACE_BLAS_SDCZ(rot);
GMRACE_BLAS_SDCZ(gemv);
GMRACE_BLAS_SDCZ(gbmv);
GMRACE_BLAS_SDCZ(trmv);
GMRACE_BLAS_SDCZ(trsv);
GMRACE_BLAS_SDCZ(symv);
GMRACE_BLAS_SDCZ(syr);
GMRACE_BLAS_SDCZ(gemm);
GMRACE_BLAS_SDCZ(gemmBatched);
GMRACE_BLAS_SDCZ(gemmStridedBatched);
GMRACE_BLAS_SDCZ(geam);
GMRACE_BLAS_SDCZ(dgmm);
GMRACE_BLAS_SDCZ(symm);
GMRACE_BLAS_SDCZ(syrk);
GMRACE_BLAS_SDCZ(syr2k);
GMRACE_BLAS_SDCZ(trmm);
GMRACE_BLAS_SDCZ(trsm);
GMRACE_BLAS_SDCZ(trsmBatched);
GMRACE_BLAS_SDCZ(getrfBatched);
GMRACE_BLAS_SDCZ(getriBatched);
GMRACE_BLAS(cublasSdot);
GMRACE_BLAS(cublasDdot);
GMRACE_BLAS(cublasCdotu);
GMRACE_BLAS(cublasCdotc);
GMRACE_BLAS(cublasZdotu);
GMRACE_BLAS(cublasZdotc);
GMRACE_BLAS(cublasSnrm2);
GMRACE_BLAS(cublasDnrm2);
GMRACE_BLAS(cublasScnrm2);
GMRACE_BLAS(cublasDznrm2);
GMRACE_BLAS(cublasSasum);
GMRACE_BLAS(cublasDasum);
GMRACE_BLAS(cublasScasum);
GMRACE_BLAS(cublasDzasum);
GMRACE_BLAS(cublasSger);
GMRACE_BLAS(cublasDger);
GMRACE_BLAS(cublasHgemm);
GMRACE_BLAS(cublasHgemmBatched);
GMRACE_BLAS(cublasHgemmStridedBatched);
GMRACE_BLAS(cublasSgemmEx);
GMRACE_BLAS(cublasCgemmEx);
GMRACE_BLAS(cublasGemmEx);
GMRACE_BLAS(cublasGemmBatchedEx);
GMRACE_BLAS(cublasGemmStridedBatchedEx);
GMRACE_BLAS(cublasAxpyEx);
GMRACE_BLAS(cublasDotEx);
GMRACE_BLAS(cublasScalEx);
GMRACE_BLAS(cublasNrm2Ex);

#undef GMRACE_BLAS_SDCZ
#undef GMRACE_BLAS

#endif
