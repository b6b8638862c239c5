// Vector arithmetic and helper_math.h functions from gmrace_vector_ops.h,
// plus the CUDART_* constants, with no user definitions and no #include
// (as GPUVerify's CUDA environment allowed).
#include <type_traits>

#define SAME(E, T) static_assert(std::is_same<decltype(E), T>::value, #E)

__device__ float3 f3;
__device__ float4 f4;
__device__ int3 i3;
__device__ uint2 u2;

// Result types.
SAME(f3 + f3, float3);
SAME(f3 - 1.0f, float3);
SAME(2 * f3, float3);
SAME(f4 / 2.0, float4);
SAME(-f4, float4);
SAME(f3 += f3, float3 &);
SAME(i3 * 2, int3);
SAME(u2 - u2, uint2);
SAME(make_double2(1, 2) * 2.0, double2);
SAME(make_uchar4(1, 2, 3, 4) + make_uchar4(1, 1, 1, 1), uchar4);
SAME(make_short2(1, 2) * (short)3, short2);
SAME(make_float4(0.0f), float4);
SAME(make_float4(0), float4);
SAME(make_float4(f3, 1.0f), float4);
SAME(make_float3(f4), float3);
SAME(make_int2(3), int2);
SAME(make_float3(i3), float3);
SAME(make_int4(f4), int4);
SAME(dot(f3, f3), float);
SAME(dot(i3, i3), int);
SAME(length(f4), float);
SAME(cross(f3, f3), float3);
SAME(clamp(1.0f, 0.0f, 2.0f), float);
SAME(clamp(1, 0, 2), int);
SAME(clamp(f3, 0.0f, 1.0f), float3);
SAME(clamp(i3, i3, i3), int3);
SAME(saturate(0.5f), float);
SAME(fminf(f4, f4), float4);
SAME(floorf(f3), float3);
SAME(fabs(f3), float3);
SAME(max(u2, u2), uint2);
SAME(smoothstep(f3, f3, f3), float3);
SAME(CUDART_PI_F, float);
SAME(CUDART_PI, double);
SAME(CUDART_INF_F, float);

// Non-vector operands are untouched (SFINAE, not an error).
SAME(1 + 2, int);

struct Ray {
  float3 o, d;
};

__device__ float intersect(Ray r, float3 c, float rad) {
  float3 l(c - r.o);                       // as in ray tracers
  float b = dot(l, r.d), l2 = dot(l, l);
  return b < 0.0f && l2 > rad * rad ? -1.0f : sqrtf(l2 - b * b);
}

__global__ void kernel(float4 *pos, float4 *vel, float3 *col, uchar4 *rgba,
                       int2 *cell, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __shared__ float3 sums[64];
  float4 p = pos[i], v = vel[i];
  float3 p3 = make_float3(p), v3 = make_float3(v);
  v3 += make_float3(0.0f, -9.8f, 0.0f) * dt;
  v3 *= 0.99f;
  p3 += v3 * dt;
  p3 = clamp(p3, -1.0f, 1.0f);
  sums[threadIdx.x % 64] = p3;
  __syncthreads();
  if (threadIdx.x < 8) sums[threadIdx.x] += sums[threadIdx.x ^ 8];
  float3 nrm = normalize(cross(p3, v3) + make_float3(1e-6f));
  float3 refl = reflect(v3, nrm);
  float3 c = lerp(col[i], refl, 0.5f) / 2.0f - -refl;
  c = fminf(fmaxf(c, make_float3(0.0f)), make_float3(1.0f));
  col[i] = fracf(c) + floorf(c) + fabs(-c) + fmodf(c, make_float3(1.0f)) +
           smoothstep(make_float3(0.0f), make_float3(1.0f), c);
  float s = saturate(length(c)) * CUDART_PI_F + intersect(Ray{p3, v3}, c, 1.0f);
  float4 o = make_float4(p3, 1.0f) + make_float4(s);
  o -= make_float4(0.5f) * 2;
  o /= 4.0f;
  pos[i] = o;
  vel[i] = make_float4(v3, 0.0f) * (float)CUDART_PI;
  int2 g = make_int2(3) + make_int2(i, n) * 2;
  cell[i] = max(min(g, make_int2(100)), make_int2(0)) - abs(make_int2(-1, 1));
  rgba[i] = make_uchar4(clamp(o.x, 0.0f, 255.0f), 0, 0, 255) + rgba[i];
}

int main() {
  // Host side: the functions are __host__ __device__.
  float3 a = make_float3(1.0f), b = make_float3(0.0f, 1.0f, 0.0f);
  float3 c = cross(a, b) * 2.0f + lerp(a, b, 0.5f);
  return (int)(dot(c, a) + clamp(c.x, 0.0f, 1.0f) + length(make_float2(3.0f)));
}
