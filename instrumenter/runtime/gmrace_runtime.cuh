/*
 * gmrace_runtime.cuh -- PLACEHOLDER written by the instrumenter's helper so that instrumented
 * files compile and run before the real device runtime lands (the "run" helper owns this file
 * and replaces it). It declares exactly the contract's API (runtime-contract.md) with bodies
 * that check nothing: __gmrace_at returns its pointer, the barriers are plain barriers.
 *
 * warpTable: 32 warps x 32 lanes x 8 bytes = 8192 bytes of shared memory per block unless
 * GMRACE_WARP_TABLE_GLOBAL is defined (the instrumenter's `auto` choice counts these bytes).
 */
#ifndef GMRACE_RUNTIME_CUH
#define GMRACE_RUNTIME_CUH

#define GMRACE_READ 0u
#define GMRACE_WRITE 1u
#define GMRACE_ATOMIC 2u
#define GMRACE_UPDATE 3u
#define GMRACE_THREAD_INVARIANT 1u
#define GMRACE_LOOP_INVARIANT 2u

__device__ void __gmrace_enter(unsigned int *rt) { (void)rt; }

__device__ void *__gmrace_at(const volatile void *p, unsigned int size,
                             unsigned int access_id, unsigned int kind,
                             unsigned int flags) {
  (void)size;
  (void)access_id;
  (void)kind;
  (void)flags;
  return (void *)p;
}

__device__ void __gmrace_syncthreads(void) { __syncthreads(); }
__device__ int __gmrace_syncthreads_count(int pred) { return __syncthreads_count(pred); }
__device__ int __gmrace_syncthreads_and(int pred) { return __syncthreads_and(pred); }
__device__ int __gmrace_syncthreads_or(int pred) { return __syncthreads_or(pred); }

__device__ void __gmrace_exit(void) {}

#endif /* GMRACE_RUNTIME_CUH */
