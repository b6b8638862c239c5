// A kernel that brings its own helper_math.h-style functions: non-template
// `inline __host__ __device__` definitions with exactly the signatures of the
// ones gmrace_vector_ops.h provides.  Ours are function templates, so there
// is no redefinition and no ambiguity: the user's non-template functions win
// overload resolution, and ours only fill in what the user lacks.
#include <cuda_runtime.h>
#include <type_traits>

typedef unsigned int uint;
typedef unsigned short ushort;

// ---- the user's helper_math subset ----
inline __host__ __device__ float2 make_float2(float s) { return make_float2(s, s); }
inline __host__ __device__ float3 make_float3(float s) { return make_float3(s, s, s); }
inline __host__ __device__ float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
inline __host__ __device__ float4 make_float4(float s) { return make_float4(s, s, s, s); }
inline __host__ __device__ float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }
inline __host__ __device__ int2 make_int2(int s) { return make_int2(s, s); }

inline __host__ __device__ float3 operator-(float3 &a) { return make_float3(-a.x, -a.y, -a.z); }
inline __host__ __device__ float3 operator+(float3 a, float3 b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
inline __host__ __device__ void operator+=(float3 &a, float3 b) {
  a.x += b.x; a.y += b.y; a.z += b.z;
}
inline __host__ __device__ float3 operator-(const float3 &a, const float3 &b) {
  return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
inline __host__ __device__ float3 operator*(float3 a, float b) {
  return make_float3(a.x * b, a.y * b, a.z * b);
}
inline __host__ __device__ float3 operator*(float b, float3 a) {
  return make_float3(b * a.x, b * a.y, b * a.z);
}
inline __host__ __device__ void operator*=(float3 &a, float b) { a.x *= b; a.y *= b; a.z *= b; }
inline __host__ __device__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
inline __host__ __device__ float3 fminf(float3 a, float3 b) {
  return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z));
}
inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }
inline __device__ __host__ float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
inline __device__ __host__ float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
inline __device__ __host__ int clamp(int f, int a, int b) { return max(a, min(f, b)); }
inline __device__ __host__ float3 clamp(float3 v, float a, float b) {
  return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b));
}
inline __host__ __device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline __host__ __device__ float length(float3 v) { return sqrtf(dot(v, v)); }
inline __host__ __device__ float3 normalize(float3 v) { return v * rsqrtf(dot(v, v)); }
inline __host__ __device__ float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
// Marker: returns double, so the checks below can tell whose dot() was called.
inline __host__ __device__ double dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }

// Declarations without bodies, __device__ only (as GPUVerify benchmarks write
// them): these must coexist with our __host__ __device__ templates too.
__device__ float length(float2);
__device__ float4 fminf(float4, float4);
__device__ float max(float, float);

// The user's versions are the ones chosen.
static_assert(std::is_same<decltype(dot(make_float2(0.0f), make_float2(1.0f))),
                           double>::value, "user's dot(float2, float2) wins");
static_assert(std::is_same<decltype(dot(make_float3(0.0f), make_float3(1.0f))),
                           float>::value, "dot(float3, float3)");

__global__ void shade(float3 *out, const float4 *in, int2 *cells, float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 p = make_float3(in[i]);               // user's
  float3 q = make_float3(1.0f);                // user's
  float4 c = make_float4(0.0f) + make_float4(p, 1.0f);
  float3 d = p - q;                            // user's (const float3 &)
  d += q;                                      // user's (returns void)
  d *= 0.5f;
  float3 e = -d;                               // user's unary minus
  float3 m = fminf(p, q);                      // user's
  float3 l = lerp(p, q, 0.25f);                // user's
  float t = clamp(w[i], 0.0f, 1.0f) + lerp(w[0], w[1], 0.5f) + length(d);
  int k = clamp(i, 0, 10);
  cells[i] = make_int2(k);
  // Functions the user's header lacks come from gmrace_vector_ops.h.
  float3 r = reflect(normalize(d), cross(p, q));
  float4 f4 = c * 2.0f - make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  float4 g4 = fminf(f4, c);                    // user's declaration
  out[i] = clamp(e + m + l + r, 0.0f, t) + make_float3(g4) * max(t, 1.0f) +
           fracf(p) * length(make_float2(w[0]));
}

int main() {
  float3 a = make_float3(1.0f), b = make_float3(2.0f, 3.0f, 4.0f);
  float3 c = a + b * 2.0f;
  return (int)(dot(c, a) + length(c) + clamp(c.x, 0.0f, 1.0f));
}
