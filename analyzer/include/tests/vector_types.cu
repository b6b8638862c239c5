// Vector types, make_* constructors, dim3 and its conversions, alignments.
#include <vector_types.h>
#include <vector_functions.h>

static_assert(sizeof(char2) == 2 && alignof(char2) == 2, "char2");
static_assert(sizeof(char3) == 3 && alignof(char3) == 1, "char3");
static_assert(alignof(uchar4) == 4, "uchar4");
static_assert(alignof(short4) == 8 && alignof(ushort2) == 4, "short");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "int2");
static_assert(sizeof(int3) == 12 && alignof(int3) == 4, "int3");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "int4");
static_assert(alignof(uint4) == 16 && alignof(uint2) == 8, "uint");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(alignof(double2) == 16 && alignof(longlong2) == 16, "64-bit");
static_assert(alignof(ulonglong2) == 16 && alignof(long2) == 16, "64-bit");
static_assert(sizeof(dim3) == 12 && sizeof(uint3) == 12, "dim3");

__device__ float4 add4(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void vec_kernel(float4 *f4, float2 *f2, int2 *i2, int4 *i4,
                           uint3 *u3, double2 *d2, char4 *c4, uchar2 *uc2,
                           short3 *s3, ushort4 *us4, long2 *l2, ulong1 *ul1,
                           longlong2 *ll2, ulonglong2 *ull2, float1 *f1,
                           double1 *d1) {
  int t = threadIdx.x;
  f4[t] = add4(f4[t], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
  f2[t] = make_float2(f2[t].x, f2[t].y);
  i2[t] = make_int2(i2[t].y, i2[t].x);
  i4[t] = make_int4(1, 2, 3, 4);
  u3[t] = make_uint3(threadIdx.x, threadIdx.y, threadIdx.z);
  d2[t] = make_double2(1.0, 2.0);
  c4[t] = make_char4(1, 2, 3, 4);
  uc2[t] = make_uchar2(1, 2);
  s3[t] = make_short3(1, 2, 3);
  us4[t] = make_ushort4(1, 2, 3, 4);
  l2[t] = make_long2(1, 2);
  ul1[t] = make_ulong1(1);
  ll2[t] = make_longlong2(1, 2);
  ull2[t] = make_ulonglong2(1, 2);
  f1[t] = make_float1(1.0f);
  d1[t] = make_double1(2.0);
  float3 f3 = make_float3(1, 2, 3);
  f4[t].x += f3.x + f3.y + f3.z;

  // Built-in variables convert to uint3 / dim3.
  uint3 tid = threadIdx;
  uint3 bid = blockIdx;
  dim3 bdim = blockDim;
  dim3 gdim = gridDim;
  dim3 from_u3 = tid;
  uint3 back = from_u3;
  u3[t].x = tid.x + bid.y + bdim.z + gdim.x + back.y + warpSize;
}

__host__ __device__ dim3 make_grid(unsigned n) {
  dim3 d;            // 1,1,1
  dim3 e(n);         // n,1,1
  dim3 f(n, 2);      // n,2,1
  dim3 g(n, 2, 3);
  uint3 u = g;
  dim3 h(u);
  return dim3(d.x + e.x + f.y + h.z);
}

int main() {
  dim3 grid = make_grid(4);
  int2 v = make_int2(1, 2);
  return (int)grid.x + v.y;
}
