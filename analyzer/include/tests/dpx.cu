// The DPX intrinsics of CUDA 12 (crt/device_functions.h), all 36, with the toolkit's
// signatures: three-way max/min, add-then-max/min, _relu, and __vib* with their predicates.
#include <cuda_runtime.h>
#include <type_traits>

static_assert(std::is_same<decltype(__viaddmax_s32(1, 2, 3)), int>::value, "s32 is int");
static_assert(std::is_same<decltype(__viaddmax_s16x2(1u, 2u, 3u)), unsigned int>::value, "x2");

__global__ void dpx_all(const unsigned int *in, unsigned int *out, bool *flags) {
  int t = threadIdx.x;
  unsigned int a = in[t], b = in[t + 32], c = in[t + 64];
  int sa = (int)a, sb = (int)b, sc = (int)c;
  bool p, hi, lo;
  unsigned int r = __vimax_s16x2_relu(a, b) ^ __vimin_s16x2_relu(a, b) ^
                   __vimax3_s16x2(a, b, c) ^ __vimax3_u16x2(a, b, c) ^ __vimin3_s16x2(a, b, c) ^
                   __vimin3_u16x2(a, b, c) ^ __vimax3_s16x2_relu(a, b, c) ^
                   __vimin3_s16x2_relu(a, b, c) ^ __viaddmax_s16x2(a, b, c) ^
                   __viaddmax_u16x2(a, b, c) ^ __viaddmin_s16x2(a, b, c) ^
                   __viaddmin_u16x2(a, b, c) ^ __viaddmax_s16x2_relu(a, b, c) ^
                   __viaddmin_s16x2_relu(a, b, c) ^ __vimax3_u32(a, b, c) ^ __vimin3_u32(a, b, c) ^
                   __viaddmax_u32(a, b, c) ^ __viaddmin_u32(a, b, c);
  int s = __vimax_s32_relu(sa, sb) ^ __vimin_s32_relu(sa, sb) ^ __vimax3_s32(sa, sb, sc) ^
          __vimin3_s32(sa, sb, sc) ^ __vimax3_s32_relu(sa, sb, sc) ^ __vimin3_s32_relu(sa, sb, sc) ^
          __viaddmax_s32(sa, sb, sc) ^ __viaddmin_s32(sa, sb, sc) ^
          __viaddmax_s32_relu(sa, sb, sc) ^ __viaddmin_s32_relu(sa, sb, sc);
  s ^= __vibmax_s32(sa, sb, &p);
  flags[t] = p;
  s ^= __vibmin_s32(sa, sb, &p);
  flags[t + 32] = p;
  r ^= __vibmax_u32(a, b, &p) ^ __vibmin_u32(a, b, &p);
  r ^= __vibmax_s16x2(a, b, &hi, &lo) ^ __vibmax_u16x2(a, b, &hi, &lo);
  r ^= __vibmin_s16x2(a, b, &hi, &lo) ^ __vibmin_u16x2(a, b, &hi, &lo);
  flags[t + 64] = hi && lo && p;
  out[t] = r ^ (unsigned int)s;
}
