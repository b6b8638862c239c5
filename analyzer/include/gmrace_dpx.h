/*
 * gmrace stand-in CUDA headers: the DPX intrinsics of CUDA 12 (__vimax3_s32,
 * __viaddmax_s16x2_relu, __vibmin_u32, ...), which the toolkit declares in
 * crt/device_functions.h and implements in C for the host and for GPUs
 * before sm_90 (sm_90 has instructions for them).  Plain functions here, so
 * the CPU device runs them and gmrace reads through them.
 *
 * Internal part of gmrace_device_functions.h.  Sums wrap (as add.s32 and
 * add.s16x2 do), computed on unsigned values: no signed overflow for an
 * analysis to assume away.  The ..x2 forms work on the two halfwords of an
 * unsigned int independently (signed or unsigned shorts); _relu clamps the
 * result below at 0; __vib* also say whether the result is `a` (a >= b for
 * max, a <= b for min).
 */
#ifndef GMRACE_DPX_H
#define GMRACE_DPX_H

#define GMRACE_DPX static __host__ __device__ __forceinline__

GMRACE_DPX int __gmr_max_s32(int a, int b) { return a > b ? a : b; }
GMRACE_DPX int __gmr_min_s32(int a, int b) { return a < b ? a : b; }
GMRACE_DPX unsigned int __gmr_max_u32(unsigned int a, unsigned int b) { return a > b ? a : b; }
GMRACE_DPX unsigned int __gmr_min_u32(unsigned int a, unsigned int b) { return a < b ? a : b; }
GMRACE_DPX int __gmr_add_s32(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
GMRACE_DPX int __gmr_add_s16(int a, int b) { return (int)(short)(unsigned short)(a + b); }
GMRACE_DPX unsigned int __gmr_add_u32(unsigned int a, unsigned int b) { return a + b; }
GMRACE_DPX unsigned int __gmr_add_u16(unsigned int a, unsigned int b) {
  return (a + b) & 0xffffu;
}
/* Halfword `i` (0 low, 1 high) as a signed or an unsigned short. */
GMRACE_DPX int __gmr_s16(unsigned int v, int i) { return (int)(short)(unsigned short)(v >> (16 * i)); }
GMRACE_DPX unsigned int __gmr_u16(unsigned int v, int i) { return (v >> (16 * i)) & 0xffffu; }
GMRACE_DPX unsigned int __gmr_pack16(int lo, int hi) {
  return ((unsigned int)lo & 0xffffu) | (((unsigned int)hi & 0xffffu) << 16);
}

/* The three-operand forms, each from one expression EXPR(MAX, MIN, ADD, X,
 * Y, Z) of its lanes, applied to the ints or to each halfword. */
#define GMRACE_DPX_SIGNED3(S32, S16X2, EXPR)                                   \
  GMRACE_DPX int S32(const int a, const int b, const int c) {                  \
    return EXPR(__gmr_max_s32, __gmr_min_s32, __gmr_add_s32, a, b, c);         \
  }                                                                            \
  GMRACE_DPX unsigned int S16X2(const unsigned int a, const unsigned int b,   \
                                const unsigned int c) {                        \
    int a0 = __gmr_s16(a, 0), b0 = __gmr_s16(b, 0), c0 = __gmr_s16(c, 0);     \
    int a1 = __gmr_s16(a, 1), b1 = __gmr_s16(b, 1), c1 = __gmr_s16(c, 1);     \
    return __gmr_pack16(EXPR(__gmr_max_s32, __gmr_min_s32, __gmr_add_s16, a0, b0, c0), \
                        EXPR(__gmr_max_s32, __gmr_min_s32, __gmr_add_s16, a1, b1, c1)); \
  }
#define GMRACE_DPX_UNSIGNED3(U32, U16X2, EXPR)                                 \
  GMRACE_DPX unsigned int U32(const unsigned int a, const unsigned int b,     \
                              const unsigned int c) {                          \
    return EXPR(__gmr_max_u32, __gmr_min_u32, __gmr_add_u32, a, b, c);         \
  }                                                                            \
  GMRACE_DPX unsigned int U16X2(const unsigned int a, const unsigned int b,   \
                                const unsigned int c) {                        \
    unsigned int a0 = __gmr_u16(a, 0), b0 = __gmr_u16(b, 0), c0 = __gmr_u16(c, 0); \
    unsigned int a1 = __gmr_u16(a, 1), b1 = __gmr_u16(b, 1), c1 = __gmr_u16(c, 1); \
    return __gmr_pack16(                                                       \
        (int)EXPR(__gmr_max_u32, __gmr_min_u32, __gmr_add_u16, a0, b0, c0),    \
        (int)EXPR(__gmr_max_u32, __gmr_min_u32, __gmr_add_u16, a1, b1, c1));   \
  }
#define GMRACE_DPX_MAX3(MAX, MIN, ADD, X, Y, Z) MAX(MAX(X, Y), Z)
#define GMRACE_DPX_MIN3(MAX, MIN, ADD, X, Y, Z) MIN(MIN(X, Y), Z)
#define GMRACE_DPX_MAX3_RELU(MAX, MIN, ADD, X, Y, Z) MAX(MAX(MAX(X, Y), Z), 0)
#define GMRACE_DPX_MIN3_RELU(MAX, MIN, ADD, X, Y, Z) MAX(MIN(MIN(X, Y), Z), 0)
#define GMRACE_DPX_ADDMAX(MAX, MIN, ADD, X, Y, Z) MAX(ADD(X, Y), Z)
#define GMRACE_DPX_ADDMIN(MAX, MIN, ADD, X, Y, Z) MIN(ADD(X, Y), Z)
#define GMRACE_DPX_ADDMAX_RELU(MAX, MIN, ADD, X, Y, Z) MAX(MAX(ADD(X, Y), Z), 0)
#define GMRACE_DPX_ADDMIN_RELU(MAX, MIN, ADD, X, Y, Z) MAX(MIN(ADD(X, Y), Z), 0)

GMRACE_DPX_SIGNED3(__vimax3_s32, __vimax3_s16x2, GMRACE_DPX_MAX3)
GMRACE_DPX_SIGNED3(__vimin3_s32, __vimin3_s16x2, GMRACE_DPX_MIN3)
GMRACE_DPX_SIGNED3(__vimax3_s32_relu, __vimax3_s16x2_relu, GMRACE_DPX_MAX3_RELU)
GMRACE_DPX_SIGNED3(__vimin3_s32_relu, __vimin3_s16x2_relu, GMRACE_DPX_MIN3_RELU)
GMRACE_DPX_SIGNED3(__viaddmax_s32, __viaddmax_s16x2, GMRACE_DPX_ADDMAX)
GMRACE_DPX_SIGNED3(__viaddmin_s32, __viaddmin_s16x2, GMRACE_DPX_ADDMIN)
GMRACE_DPX_SIGNED3(__viaddmax_s32_relu, __viaddmax_s16x2_relu, GMRACE_DPX_ADDMAX_RELU)
GMRACE_DPX_SIGNED3(__viaddmin_s32_relu, __viaddmin_s16x2_relu, GMRACE_DPX_ADDMIN_RELU)
GMRACE_DPX_UNSIGNED3(__vimax3_u32, __vimax3_u16x2, GMRACE_DPX_MAX3)
GMRACE_DPX_UNSIGNED3(__vimin3_u32, __vimin3_u16x2, GMRACE_DPX_MIN3)
GMRACE_DPX_UNSIGNED3(__viaddmax_u32, __viaddmax_u16x2, GMRACE_DPX_ADDMAX)
GMRACE_DPX_UNSIGNED3(__viaddmin_u32, __viaddmin_u16x2, GMRACE_DPX_ADDMIN)

/* Two operands, clamped at 0. */
GMRACE_DPX int __vimax_s32_relu(const int a, const int b) {
  return __gmr_max_s32(__gmr_max_s32(a, b), 0);
}
GMRACE_DPX int __vimin_s32_relu(const int a, const int b) {
  return __gmr_max_s32(__gmr_min_s32(a, b), 0);
}
GMRACE_DPX unsigned int __vimax_s16x2_relu(const unsigned int a, const unsigned int b) {
  return __vimax3_s16x2_relu(a, b, b);
}
GMRACE_DPX unsigned int __vimin_s16x2_relu(const unsigned int a, const unsigned int b) {
  return __vimin3_s16x2_relu(a, b, b);
}

/* max/min and whether it is `a`. */
GMRACE_DPX int __vibmax_s32(const int a, const int b, bool *const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
GMRACE_DPX unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool *const pred) {
  *pred = a >= b;
  return a >= b ? a : b;
}
GMRACE_DPX int __vibmin_s32(const int a, const int b, bool *const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
GMRACE_DPX unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool *const pred) {
  *pred = a <= b;
  return a <= b ? a : b;
}
#define GMRACE_DPX_PAIR(NAME, LANE, OP)                                        \
  GMRACE_DPX unsigned int NAME(const unsigned int a, const unsigned int b,    \
                               bool *const pred_hi, bool *const pred_lo) {     \
    int lo_a = LANE(a, 0), lo_b = LANE(b, 0), hi_a = LANE(a, 1), hi_b = LANE(b, 1); \
    *pred_lo = lo_a OP lo_b;                                                   \
    *pred_hi = hi_a OP hi_b;                                                   \
    return __gmr_pack16(lo_a OP lo_b ? lo_a : lo_b, hi_a OP hi_b ? hi_a : hi_b); \
  }
#define GMRACE_DPX_U16(v, i) ((int)__gmr_u16(v, i))
GMRACE_DPX_PAIR(__vibmax_s16x2, __gmr_s16, >=)
GMRACE_DPX_PAIR(__vibmax_u16x2, GMRACE_DPX_U16, >=)
GMRACE_DPX_PAIR(__vibmin_s16x2, __gmr_s16, <=)
GMRACE_DPX_PAIR(__vibmin_u16x2, GMRACE_DPX_U16, <=)
#undef GMRACE_DPX_U16
#undef GMRACE_DPX_PAIR

#undef GMRACE_DPX_MAX3
#undef GMRACE_DPX_MIN3
#undef GMRACE_DPX_MAX3_RELU
#undef GMRACE_DPX_MIN3_RELU
#undef GMRACE_DPX_ADDMAX
#undef GMRACE_DPX_ADDMIN
#undef GMRACE_DPX_ADDMAX_RELU
#undef GMRACE_DPX_ADDMIN_RELU
#undef GMRACE_DPX_SIGNED3
#undef GMRACE_DPX_UNSIGNED3
#undef GMRACE_DPX
#endif /* GMRACE_DPX_H */
