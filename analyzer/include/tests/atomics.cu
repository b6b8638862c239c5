// Every atomic overload, including the _block and _system scopes.
__global__ void atomics_kernel(int *i, unsigned int *u, unsigned long long *ull,
                               long long *ll, float *f, double *d,
                               unsigned short *us) {
  int r = 0;
  // atomicAdd
  r += atomicAdd(i, 1);
  r += atomicAdd(u, 1u);
  r += (int)atomicAdd(ull, 1ULL);
  r += (int)atomicAdd(f, 1.0f);
  r += (int)atomicAdd(d, 1.0);
  r += atomicAdd_block(i, 1) + atomicAdd_system(i, 1);
  r += (int)atomicAdd_block(f, 1.0f) + (int)atomicAdd_system(d, 1.0);
  // atomicSub
  r += atomicSub(i, 1) + (int)atomicSub(u, 1u);
  r += atomicSub_block(i, 1) + (int)atomicSub_system(u, 1u);
  // atomicExch
  r += atomicExch(i, 2) + (int)atomicExch(u, 2u) + (int)atomicExch(ull, 2ULL) +
       (int)atomicExch(f, 2.0f);
  r += atomicExch_block(i, 2) + (int)atomicExch_system(f, 2.0f);
  // atomicMin / atomicMax
  r += atomicMin(i, 0) + (int)atomicMin(u, 0u) + (int)atomicMin(ull, 0ULL) +
       (int)atomicMin(ll, 0LL);
  r += atomicMax(i, 0) + (int)atomicMax(u, 0u) + (int)atomicMax(ull, 0ULL) +
       (int)atomicMax(ll, 0LL);
  r += atomicMin_block(i, 0) + (int)atomicMax_system(ll, 0LL);
  // atomicInc / atomicDec
  r += (int)atomicInc(u, 100u) + (int)atomicDec(u, 100u);
  r += (int)atomicInc_block(u, 100u) + (int)atomicDec_system(u, 100u);
  // atomicCAS
  r += atomicCAS(i, 0, 1) + (int)atomicCAS(u, 0u, 1u) +
       (int)atomicCAS(ull, 0ULL, 1ULL) +
       (int)atomicCAS(us, (unsigned short)0, (unsigned short)1);
  r += atomicCAS_block(i, 0, 1) + (int)atomicCAS_system(u, 0u, 1u) +
       (int)atomicCAS_block(ull, 0ULL, 1ULL);
  // bitwise
  r += atomicAnd(i, 1) + (int)atomicAnd(u, 1u) + (int)atomicAnd(ull, 1ULL);
  r += atomicOr(i, 1) + (int)atomicOr(u, 1u) + (int)atomicOr(ull, 1ULL);
  r += atomicXor(i, 1) + (int)atomicXor(u, 1u) + (int)atomicXor(ull, 1ULL);
  r += atomicAnd_block(i, 1) + atomicOr_system(i, 1) + atomicXor_block(i, 1);

  // The typical float-max-via-CAS idiom.
  int *addr = (int *)f;
  int old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed,
                    __float_as_int(fmaxf(1.0f, __int_as_float(assumed))));
  } while (assumed != old);

  // Atomics on shared memory.
  __shared__ unsigned int hist[32];
  atomicAdd(&hist[threadIdx.x % 32], 1u);
  __syncthreads();
  i[threadIdx.x] = r + hist[0];
}
