// Barriers, fences, votes, shuffles, match, bit manipulation, __ldg, clocks.
__global__ void warp_kernel(int *i, unsigned *u, long long *ll,
                            unsigned long long *ull, float *f, double *d,
                            const float *__restrict__ ro) {
  int t = threadIdx.x;
  unsigned mask = __activemask();
  __syncthreads();
  int cnt = __syncthreads_count(i[t] > 0);
  int all = __syncthreads_and(i[t] > 0);
  int any = __syncthreads_or(i[t] > 0);
  __syncwarp();
  __syncwarp(mask);
  __threadfence();
  __threadfence_block();
  __threadfence_system();

  // votes
  unsigned b = __ballot_sync(0xffffffff, t & 1);
  int va = __any_sync(0xffffffff, t > 3) + __all_sync(mask, t >= 0) +
           __uni_sync(mask, 1);
  int legacy = __any(t > 3) + __all(t >= 0) + (int)__ballot(t & 1);

  // shuffles, all overloads, with and without width
  i[t] = __shfl_sync(0xffffffff, i[t], 0) + __shfl_up_sync(mask, i[t], 1) +
         __shfl_down_sync(mask, i[t], 1, 16) + __shfl_xor_sync(mask, i[t], 1, warpSize);
  u[t] = __shfl_sync(mask, u[t], 0) + __shfl_down_sync(mask, u[t], 2);
  ll[t] = __shfl_sync(mask, ll[t], 0) + __shfl_xor_sync(mask, ll[t], 4);
  ull[t] = __shfl_up_sync(mask, ull[t], 1) + __shfl_down_sync(mask, ull[t], 1);
  f[t] = __shfl_sync(mask, f[t], 3) + __shfl_xor_sync(mask, f[t], 8, 16);
  d[t] = __shfl_down_sync(mask, d[t], 1) + __shfl_up_sync(mask, d[t], 1);
  // legacy (pre-Volta) shuffles
  i[t] += __shfl(i[t], 0) + __shfl_up(i[t], 1) + __shfl_down(i[t], 1) +
          __shfl_xor(i[t], 1, 16);
  f[t] += __shfl(f[t], 0) + __shfl_down(f[t], 2);

  // match (sm_70)
  int pred;
  unsigned m1 = __match_any_sync(mask, i[t]);
  unsigned m2 = __match_all_sync(mask, u[t], &pred);
  unsigned m3 = __match_any_sync(mask, ull[t]) + __match_any_sync(mask, f[t]);

  // bit manipulation and integer intrinsics
  int bits = __popc(u[t]) + __popcll(ull[t]) + __ffs(i[t]) + __ffsll(ll[t]) +
             __clz(i[t]) + __clzll(ll[t]) + (int)__brev(u[t]) + __dp4a(i[t], 3, 1) +
             (int)__dp4a(u[t], 3u, 1u) +
             __dp4a(make_char4(1, -2, 3, -4), make_char4(i[t], 1, 1, 1), 0) +
             (int)__dp4a(make_uchar4(1, 2, 3, 4), make_uchar4(1, 1, 1, 1), 0u) +
             __dp2a_lo(i[t], 5, 1) + __dp2a_hi(make_short2(1, 2), make_char4(1, 2, 3, 4), 0) +
             (int)__dp2a_hi(u[t], 5u, 1u) +
             (int)__dp2a_lo(make_ushort2(1, 2), make_uchar4(1, 2, 3, 4), 0u) +
             (int)__brevll(ull[t]) + __mul24(i[t], 3) + (int)__umul24(u[t], 3u) +
             __mulhi(i[t], 7) + (int)__umulhi(u[t], 7u) +
             (int)__mul64hi(ll[t], 3LL) + (int)__umul64hi(ull[t], 3ULL) +
             (int)__sad(i[t], 1, 2u) + (int)__usad(u[t], 1u, 2u) +
             (int)__byte_perm(u[t], 0u, 0x3210u) + __hadd(i[t], 1) +
             __rhadd(i[t], 1) + (int)__funnelshift_l(u[t], 1u, 3u);

  // read-only loads
  float r = __ldg(ro + t) + __ldg(&ro[0]);
  int ri = __ldg((const int *)i + t);
  double rd = __ldg((const double *)d + t);
  float4 r4 = __ldg((const float4 *)ro);
  float rc = __ldcg(ro + t) + __ldcs(ro + t);

  // clocks and sleep
  long long c0 = clock64();
  int c1 = clock();
  __nanosleep(100);

  i[t] = cnt + all + any + (int)b + va + legacy + (int)(m1 + m2 + m3) + bits +
         (int)(r + ri + rd + r4.x + rc) + (int)(clock64() - c0) + c1 + pred;
}
