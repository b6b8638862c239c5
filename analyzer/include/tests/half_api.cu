// cuda_fp16.h / cuda_bf16.h beyond the basics, as nvcc's headers define them: the raw
// forms, conversions in every rounding mode, the math library, the _sat/_relu arithmetic,
// pair comparisons, the C++ operators (unary +, ++, pair ==), __ldg, shuffles of bfloat16,
// and atomicAdd on all four types. Overload resolution as with nvcc: `+h * h` is a __half,
// `f * h` and `h * f` are ambiguous.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <type_traits>
#include <utility>

template <class A, class B, class = void> struct gm_can_mul : std::false_type {};
template <class A, class B>
struct gm_can_mul<A, B, decltype((void)(std::declval<A>() * std::declval<B>()))>
    : std::true_type {};
static_assert(gm_can_mul<__half, __half>::value, "half * half");
static_assert(!gm_can_mul<float, __half>::value, "float * half is ambiguous, as with nvcc");
static_assert(!gm_can_mul<__half, float>::value, "half * float is ambiguous, as with nvcc");
static_assert(!gm_can_mul<__nv_bfloat16, float>::value, "bf16 * float is ambiguous");
static_assert(std::is_same<decltype(+std::declval<__half>() * std::declval<__half>()), __half>::value,
              "unary + keeps a __half");
static_assert(std::is_same<decltype(-std::declval<__nv_bfloat16>()), __nv_bfloat16>::value,
              "unary - keeps a bfloat16");
static_assert(!std::is_convertible<__half, __nv_bfloat16>::value, "explicit only, as with nvcc");
static_assert(std::is_constructible<__nv_bfloat16, __half>::value, "explicit conversion");
static_assert(sizeof(__half_raw) == 2 && sizeof(__half2_raw) == 4, "raw");
static_assert(sizeof(__nv_bfloat16_raw) == 2 && sizeof(__nv_bfloat162_raw) == 4, "raw");

__global__ void half_api(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2,
                         float *f, int *i, long long *ll, unsigned int *mask) {
  int t = threadIdx.x;
  __half x = h[t];
  __nv_bfloat16 y = b[t];
  __half_raw raw = x;
  raw.x ^= 0x8000u;
  x = raw;
  f[t] = __half2float(__float2half_rz(f[t])) + __half2float(__float2half_rd(f[t])) +
         __half2float(__float2half_ru(f[t])) + __bfloat162float(__float2bfloat16_rz(f[t])) +
         __bfloat162float(__double2bfloat16(1.0 / 3.0)) + __half2float(__double2half(0.1));
  i[t] = __half2int_rn(x) + __half2int_rd(x) + __half2short_ru(x) + __bfloat162int_rn(y) +
         (int)__bfloat162uint_rz(y) + __half2uchar_rz(x) + __bfloat162char_rz(y);
  ll[t] = __half2ll_rn(x) + (long long)__bfloat162ull_rd(y) + (int)x + (long long)y;
  x = __int2half_rn(t) + __uint2half_rz(7u) + __ll2half_rd(-3) + __ushort2half_ru(2);
  y = __int2bfloat16_rn(t) + __ull2bfloat16_rz(1ull << 40) + __short2bfloat16_rd(-2);
  x = hexp(x) + hlog2(__habs(x)) + hsqrt(x) + hrcp(x) + hfloor(x) + hrint(x) + hcos(x);
  y = hexp2(y) + hlog(__habs(y)) + hrsqrt(y) + hceil(y) + htrunc(y) + hsin(y) + hexp10(y);
  x = __hmax(x, __hmin_nan(x, __float2half(1.0f))) + __hfma_relu(x, x, x) + __hadd_sat(x, x);
  y = __hmax(y, __hmin(y, __float2bfloat16(1.0f))) + __hfma(y, y, y) + __hmul_sat(y, y);
  y /= y;
  ++x;
  y--;
  h2[t] = __hcmadd(h2[t], h2[t], h2[t]) + h2exp(h2[t]) + __hmax2(h2[t], h2[t]) + __lowhigh2highlow(h2[t]);
  b2[t] = __hfma2_relu(b2[t], b2[t], b2[t]) * h2floor(b2[t]) - __habs2(b2[t]);
  mask[t] = __heq2_mask(h2[t], h2[t]) | __hltu2_mask(h2[t], h2[t]) | __hbgeu2(b2[t], b2[t]) |
            (h2[t] == h2[t]) | (b2[t] != b2[t]) | __hisinf(x) | __hisnan(y) |
            __hbeq2(__hisnan2(h2[t]), h2[t]);
  y = __shfl_xor_sync(0xffffffffu, y, 1) + __shfl_down_sync(0xffffffffu, b2[t], 2).x;
  x += __ldg(&h[0]) + __ldg(&h2[0]).y + __half(__ldg(&b[0]));
  f[t] += __low2float(b2[t]) + __high2float(h2[t]) + __bfloat1622float2(b2[t]).y +
          __half22float2(h2[t]).x + (float)__low2bfloat16(__bfloat162bfloat162(y));
  atomicAdd(&h[t], x);
  atomicAdd(&h2[0], __half2half2(x));
  atomicAdd(&b[t], y);
  atomicAdd(&b2[0], make_bfloat162(y, y));
  __half old = atomicAdd(&h[0], __ushort_as_half((unsigned short)0x3c00u));
  f[t] += __half2float(old) + __bfloat162float(__ushort_as_bfloat16(__bfloat16_as_ushort(y)));
}
