// <cmath> together with device math: float, double, std::, fast intrinsics,
// conversions, min/max overloads; host code uses the same names.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

__device__ float f_all(float x, float y) {
  float s, c;
  sincosf(x, &s, &c);
  return sqrtf(x) + rsqrtf(x) + expf(x) + exp2f(x) + logf(x) + log2f(x) +
         log10f(x) + powf(x, y) + sinf(x) + cosf(x) + tanf(x) + s + c +
         tanhf(x) + fabsf(x) + floorf(x) + ceilf(x) + roundf(x) + truncf(x) +
         fminf(x, y) + fmaxf(x, y) + fmodf(x, y) + fmaf(x, y, 1.0f) + erff(x) +
         __expf(x) + __logf(x) + __sinf(x) + __cosf(x) + __powf(x, y) +
         __fdividef(x, y) + __saturatef(x) + __fmul_rn(x, y) +
         __fadd_rn(x, y) + rintf(x) + (float)lrintf(x) + cbrtf(x) +
         atan2f(x, y) + hypotf(x, y) + exp10f(x) + copysignf(x, y);
}

__device__ double d_all(double x, double y) {
  return sqrt(x) + exp(x) + log(x) + pow(x, y) + sin(x) + cos(x) + fabs(x) +
         floor(x) + ceil(x) + fmin(x, y) + fmax(x, y) + fma(x, y, 1.0) +
         rsqrt(x) + tanh(x) + round(x) + atan2(x, y);
}

__device__ float std_overloads(float x) {
  return std::sqrt(x) + std::exp(x) + std::abs(x) + std::fabs(x) +
         std::pow(x, 2.0f) + std::fmin(x, 1.0f) + std::floor(x) +
         std::log(x) + std::sin(x);
}

__global__ void math_kernel(float *f, double *d, int *i, unsigned *u,
                            long long *ll, unsigned long long *ull) {
  int t = threadIdx.x;
  f[t] = f_all(f[t], f[t + 1]) + std_overloads(f[t]);
  d[t] = d_all(d[t], d[t + 1]);
  // conversions / reinterpretation
  int bits = __float_as_int(f[t]);
  f[t] += __int_as_float(bits) + __int2float_rn(bits) + __uint2float_rn(u[t]);
  i[t] = __float2int_rn(f[t]) + (int)__float2uint_rn(f[t]) +
         (int)__double2float_rn(d[t]);
  // classification
  if (isnan(f[t]) || isinf(f[t]) || isnan(d[t]) || isinf(d[t]) ||
      std::isnan(f[t]) || isfinite(f[t]) || signbit(f[t]))
    f[t] = 0.0f;
  // integer min/max/abs families
  i[t] = min(i[t], t) + max(i[t], 3) + abs(i[t]);
  u[t] = min(u[t], 4u) + max(u[t], 1u) + umin(u[t], 2u) + umax(u[t], 3u) +
         min(u[t], t) + max(t, u[t]);
  ll[t] = min(ll[t], 5LL) + max(ll[t], 6LL) + llmin(ll[t], 7LL) +
          llmax(ll[t], 8LL) + llabs(ll[t]) + abs(ll[t]);
  ull[t] = min(ull[t], 9ULL) + max(ull[t], 10ULL) + ullmin(ull[t], 1ULL) +
           ullmax(ull[t], 2ULL);
  f[t] += min(f[t], 1.0f) + max(f[t], 2.0f);
  d[t] += min(d[t], 1.0) + max(d[t], 2.0) + min(f[t], 2.0) + max(1.0, f[t]);
}

// Host code using the same names must still resolve to the host versions.
double host_side(double x) {
  return std::sqrt(x) + sqrt(x) + std::pow(x, 2.0) + fabs(x) +
         std::min(1.0, x) + min(1, 2) + max(3u, 4u) + abs(-3);
}

__host__ __device__ float both_sides(float x) {
  return sqrtf(x) + fmaxf(x, 0.0f) + min(1, 2);
}

int main() {
  printf("%f %f\n", host_side(2.0), both_sides(3.0f));
  return 0;
}
