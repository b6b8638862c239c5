/*
 * gmrace stand-in for cuRAND's host API, <curand.h>: enough for host code
 * that creates a generator and fills device memory to type-check.
 * Declarations only; enumerator values follow the cuRAND documentation.
 * Parameter names are omitted (kernels define macros with arbitrary names).
 */
#ifndef GMRACE_CURAND_H
#define GMRACE_CURAND_H

#include "gmrace_cuda.h"

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 3
#define CURAND_VER_PATCH 0
#define CURAND_VERSION                                                         \
  (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

typedef enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

typedef enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
} curandOrdering_t;

typedef enum curandDirectionVectorSet {
  CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
  CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
} curandDirectionVectorSet_t;

struct curandGenerator_st;
typedef struct curandGenerator_st *curandGenerator_t;

extern "C" {
__host__ curandStatus_t curandCreateGenerator(curandGenerator_t *,
                                              curandRngType_t);
__host__ curandStatus_t curandCreateGeneratorHost(curandGenerator_t *,
                                                  curandRngType_t);
__host__ curandStatus_t curandDestroyGenerator(curandGenerator_t);
__host__ curandStatus_t curandGetVersion(int *);
__host__ curandStatus_t curandSetStream(curandGenerator_t, cudaStream_t);
__host__ curandStatus_t
curandSetPseudoRandomGeneratorSeed(curandGenerator_t, unsigned long long);
__host__ curandStatus_t curandSetGeneratorOffset(curandGenerator_t,
                                                 unsigned long long);
__host__ curandStatus_t curandSetGeneratorOrdering(curandGenerator_t,
                                                   curandOrdering_t);
__host__ curandStatus_t
curandSetQuasiRandomGeneratorDimensions(curandGenerator_t, unsigned int);
__host__ curandStatus_t curandGenerate(curandGenerator_t, unsigned int *,
                                       size_t);
__host__ curandStatus_t curandGenerateLongLong(curandGenerator_t,
                                               unsigned long long *, size_t);
__host__ curandStatus_t curandGenerateUniform(curandGenerator_t, float *,
                                              size_t);
__host__ curandStatus_t curandGenerateUniformDouble(curandGenerator_t,
                                                    double *, size_t);
__host__ curandStatus_t curandGenerateNormal(curandGenerator_t, float *,
                                             size_t, float, float);
__host__ curandStatus_t curandGenerateNormalDouble(curandGenerator_t,
                                                   double *, size_t, double,
                                                   double);
__host__ curandStatus_t curandGenerateLogNormal(curandGenerator_t, float *,
                                                size_t, float, float);
__host__ curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t,
                                                      double *, size_t,
                                                      double, double);
__host__ curandStatus_t curandGeneratePoisson(curandGenerator_t,
                                              unsigned int *, size_t, double);
__host__ curandStatus_t curandGenerateSeeds(curandGenerator_t);
__host__ curandStatus_t curandGetDirectionVectors32(
    unsigned int (**)[32], curandDirectionVectorSet_t);
__host__ curandStatus_t curandGetDirectionVectors64(
    unsigned long long (**)[64], curandDirectionVectorSet_t);
__host__ curandStatus_t curandGetScrambleConstants32(unsigned int **);
__host__ curandStatus_t curandGetScrambleConstants64(unsigned long long **);
} /* extern "C" */

#endif /* GMRACE_CURAND_H */
