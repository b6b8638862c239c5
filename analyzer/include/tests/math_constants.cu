// CUDART_* constants: available without an #include (prelude), from
// <math_constants.h>, usable in constant expressions and in host code, and
// a user's own identical definition is tolerated.
#include <math_constants.h>
#define CUDART_PI_F 3.141592654f

constexpr float kTwoPi = 2.0f * CUDART_PI_F;
static_assert(CUDART_PI > 3.14159 && CUDART_PI < 3.1416, "pi");
static_assert(CUDART_INF_F > CUDART_MAX_NORMAL_F, "inf");
static_assert(CUDART_SQRT_2PI * CUDART_SQRT_2PI > 6.28, "sqrt(2 pi)");

__global__ void spectrum(float2 *h, const float *k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float phase = k[i] * kTwoPi / CUDART_L2E_F;
  float v = k[i] == 0.0f ? CUDART_INF_F : sqrtf(CUDART_PIO2_F / k[i]);
  double d = CUDART_PI * CUDART_LN2 + CUDART_NAN;
  h[i] = make_float2(v * cosf(phase), isnan(d) ? CUDART_ZERO_F : CUDART_ONE_F);
}

int main() { return CUDART_PI_F > 3.0f && CUDART_INF > 1e308 ? 0 : 1; }
