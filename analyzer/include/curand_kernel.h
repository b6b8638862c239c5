/*
 * gmrace stand-in for cuRAND's device API, <curand_kernel.h>.
 *
 * Also included by gmrace_prelude.h: kernels written for GPUVerify's CUDA
 * environment use curandState, curand_init() ... without including anything.
 *
 * The state types have the toolkit's layout (so sizeof and arrays of states
 * behave) but reserved member names: user code never reads them, and every
 * file sees this header whatever macros it defines.  The generator functions
 * are __device__ DECLARATIONS without bodies, for gmrace to recognise by
 * name: the only memory a call touches is the state it is given (read and
 * written), which is what matters for race detection; the random values
 * themselves are never needed.  In PTX a call is an `.extern .func`
 * (cuRAND's are inline functions, so PTX from this header is for checking
 * only, not for linking).
 *
 * Parameter names are omitted: kernels define macros with arbitrary names.
 */
#ifndef GMRACE_CURAND_KERNEL_H
#define GMRACE_CURAND_KERNEL_H

#include "gmrace_cuda.h"
#include "curand.h"

/* ---- state types ---- */

/* XORWOW, the default generator (curandState). */
struct curandStateXORWOW {
  unsigned int __gmr_d, __gmr_v[5];
  int __gmr_boxmuller_flag;
  int __gmr_boxmuller_flag_double;
  float __gmr_boxmuller_extra;
  double __gmr_boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 __gmr_ctr;
  uint4 __gmr_output;
  uint2 __gmr_key;
  unsigned int __gmr_STATE;
  int __gmr_boxmuller_flag;
  int __gmr_boxmuller_flag_double;
  float __gmr_boxmuller_extra;
  double __gmr_boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int __gmr_s1[3];
  unsigned int __gmr_s2[3];
  int __gmr_boxmuller_flag;
  int __gmr_boxmuller_flag_double;
  float __gmr_boxmuller_extra;
  double __gmr_boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

struct curandStateSobol32 {
  unsigned int __gmr_i, __gmr_x, __gmr_c;
  unsigned int __gmr_direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;

struct curandStateScrambledSobol32 {
  unsigned int __gmr_i, __gmr_x, __gmr_c;
  unsigned int __gmr_direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;

struct curandStateSobol64 {
  unsigned long long __gmr_i, __gmr_x, __gmr_c;
  unsigned long long __gmr_direction_vectors[64];
};
typedef struct curandStateSobol64 curandStateSobol64_t;

struct curandStateScrambledSobol64 {
  unsigned long long __gmr_i, __gmr_x, __gmr_c;
  unsigned long long __gmr_direction_vectors[64];
};
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

/* MTGP32: the state is big and its parameters live in global memory. */
#define MTGP32_STATE_SIZE 1024
#define MTGP32_STATE_MASK 1023
struct mtgp32_kernel_params;
typedef struct mtgp32_kernel_params mtgp32_kernel_params_t;
struct curandStateMtgp32 {
  unsigned int __gmr_s[MTGP32_STATE_SIZE];
  int __gmr_offset;
  int __gmr_pIdx;
  mtgp32_kernel_params_t *__gmr_k;
  int __gmr_precise_double_flag;
};
typedef struct curandStateMtgp32 curandStateMtgp32_t;

typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

/* ---- initialisation ---- */
__device__ void curand_init(unsigned long long, unsigned long long,
                            unsigned long long, curandStateXORWOW_t *);
__device__ void curand_init(unsigned long long, unsigned long long,
                            unsigned long long, curandStatePhilox4_32_10_t *);
__device__ void curand_init(unsigned long long, unsigned long long,
                            unsigned long long, curandStateMRG32k3a_t *);
__device__ void curand_init(curandDirectionVectors32_t, unsigned int,
                            curandStateSobol32_t *);
__device__ void curand_init(curandDirectionVectors32_t, unsigned int,
                            unsigned int, curandStateScrambledSobol32_t *);
__device__ void curand_init(curandDirectionVectors64_t, unsigned long long,
                            curandStateSobol64_t *);
__device__ void curand_init(curandDirectionVectors64_t, unsigned long long,
                            unsigned long long,
                            curandStateScrambledSobol64_t *);

/* ---- generators common to all state types ---- */
#define GMRACE_CURAND_COMMON(STATE)                                            \
  __device__ unsigned int curand(STATE *);                                     \
  __device__ float curand_uniform(STATE *);                                    \
  __device__ double curand_uniform_double(STATE *);                            \
  __device__ float curand_normal(STATE *);                                     \
  __device__ double curand_normal_double(STATE *);                             \
  __device__ float curand_log_normal(STATE *, float, float);                   \
  __device__ double curand_log_normal_double(STATE *, double, double);         \
  __device__ unsigned int curand_poisson(STATE *, double);                     \
  __device__ void skipahead(unsigned long long, STATE *);
GMRACE_CURAND_COMMON(curandStateXORWOW_t)
GMRACE_CURAND_COMMON(curandStatePhilox4_32_10_t)
GMRACE_CURAND_COMMON(curandStateMRG32k3a_t)
GMRACE_CURAND_COMMON(curandStateSobol32_t)
GMRACE_CURAND_COMMON(curandStateScrambledSobol32_t)
GMRACE_CURAND_COMMON(curandStateMtgp32_t)
#undef GMRACE_CURAND_COMMON

/* 64-bit Sobol: curand() gives 64 bits. */
__device__ unsigned long long curand(curandStateSobol64_t *);
__device__ unsigned long long curand(curandStateScrambledSobol64_t *);
#define GMRACE_CURAND_SOBOL64(STATE)                                           \
  __device__ float curand_uniform(STATE *);                                    \
  __device__ double curand_uniform_double(STATE *);                            \
  __device__ float curand_normal(STATE *);                                     \
  __device__ double curand_normal_double(STATE *);                             \
  __device__ float curand_log_normal(STATE *, float, float);                   \
  __device__ double curand_log_normal_double(STATE *, double, double);         \
  __device__ unsigned int curand_poisson(STATE *, double);                     \
  __device__ void skipahead(unsigned long long, STATE *);
GMRACE_CURAND_SOBOL64(curandStateSobol64_t)
GMRACE_CURAND_SOBOL64(curandStateScrambledSobol64_t)
#undef GMRACE_CURAND_SOBOL64

/* Pairs (Box-Muller) for the pseudo-random generators. */
#define GMRACE_CURAND_PAIRS(STATE)                                             \
  __device__ float2 curand_normal2(STATE *);                                   \
  __device__ double2 curand_normal2_double(STATE *);                           \
  __device__ float2 curand_log_normal2(STATE *, float, float);                 \
  __device__ double2 curand_log_normal2_double(STATE *, double, double);       \
  __device__ void skipahead_sequence(unsigned long long, STATE *);
GMRACE_CURAND_PAIRS(curandStateXORWOW_t)
GMRACE_CURAND_PAIRS(curandStatePhilox4_32_10_t)
GMRACE_CURAND_PAIRS(curandStateMRG32k3a_t)
#undef GMRACE_CURAND_PAIRS
__device__ void skipahead_subsequence(unsigned long long,
                                      curandStateMRG32k3a_t *);

/* Philox produces four values at a time. */
__device__ uint4 curand4(curandStatePhilox4_32_10_t *);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *, float,
                                     float);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *, double);

/* MTGP32 block-wide helpers. */
__device__ unsigned int curand_mtgp32_single(curandStateMtgp32_t *);
__device__ float curand_mtgp32_single_specific(curandStateMtgp32_t *,
                                               unsigned char, unsigned char);

#endif /* GMRACE_CURAND_KERNEL_H */
