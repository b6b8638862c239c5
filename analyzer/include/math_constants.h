/*
 * gmrace stand-in for the CUDA toolkit's <math_constants.h>: the CUDART_*
 * floating-point constants.
 *
 * Also included by gmrace_prelude.h, because kernels written for GPUVerify's
 * CUDA environment use CUDART_PI_F & co. without including anything.  Every
 * macro is guarded with #ifndef, so a user's own definition (before or
 * after, if identical) is left alone.
 *
 * The toolkit spells the special values with __int_as_float(), which is
 * device-only and not a constant expression; the clang builtins used here
 * are both host- and device-usable and constant.  *_HI is the double nearest
 * to the constant, *_LO the rest.
 */
#ifndef GMRACE_MATH_CONSTANTS_H
#define GMRACE_MATH_CONSTANTS_H

/* ---- single precision ---- */
#ifndef CUDART_INF_F
#define CUDART_INF_F __builtin_huge_valf()
#endif
#ifndef CUDART_NAN_F
#define CUDART_NAN_F __builtin_nanf("")
#endif
#ifndef CUDART_MIN_DENORM_F
#define CUDART_MIN_DENORM_F 1.40129846e-45f
#endif
#ifndef CUDART_MAX_NORMAL_F
#define CUDART_MAX_NORMAL_F 3.40282347e+38f
#endif
#ifndef CUDART_NEG_ZERO_F
#define CUDART_NEG_ZERO_F (-0.0f)
#endif
#ifndef CUDART_ZERO_F
#define CUDART_ZERO_F 0.0f
#endif
#ifndef CUDART_ONE_F
#define CUDART_ONE_F 1.0f
#endif
#ifndef CUDART_SQRT_HALF_F
#define CUDART_SQRT_HALF_F 0.707106781f
#endif
#ifndef CUDART_SQRT_HALF_HI_F
#define CUDART_SQRT_HALF_HI_F 0.707106781f
#endif
#ifndef CUDART_SQRT_HALF_LO_F
#define CUDART_SQRT_HALF_LO_F 1.210161749e-08f
#endif
#ifndef CUDART_SQRT_TWO_F
#define CUDART_SQRT_TWO_F 1.414213562f
#endif
#ifndef CUDART_THIRD_F
#define CUDART_THIRD_F 0.333333333f
#endif
#ifndef CUDART_PIO4_F
#define CUDART_PIO4_F 0.785398163f
#endif
#ifndef CUDART_PIO2_F
#define CUDART_PIO2_F 1.570796327f
#endif
#ifndef CUDART_3PIO4_F
#define CUDART_3PIO4_F 2.356194490f
#endif
#ifndef CUDART_2_OVER_PI_F
#define CUDART_2_OVER_PI_F 0.636619772f
#endif
#ifndef CUDART_SQRT_2_OVER_PI_F
#define CUDART_SQRT_2_OVER_PI_F 0.797884561f
#endif
#ifndef CUDART_PI_F
#define CUDART_PI_F 3.141592654f
#endif
#ifndef CUDART_L2E_F
#define CUDART_L2E_F 1.442695041f
#endif
#ifndef CUDART_L2T_F
#define CUDART_L2T_F 3.321928094f
#endif
#ifndef CUDART_LG2_F
#define CUDART_LG2_F 0.301029996f
#endif
#ifndef CUDART_LGE_F
#define CUDART_LGE_F 0.434294482f
#endif
#ifndef CUDART_LN2_F
#define CUDART_LN2_F 0.693147181f
#endif
#ifndef CUDART_LNT_F
#define CUDART_LNT_F 2.302585093f
#endif
#ifndef CUDART_LNPI_F
#define CUDART_LNPI_F 1.144729886f
#endif
#ifndef CUDART_TWO_TO_M126_F
#define CUDART_TWO_TO_M126_F 1.175494351e-38f
#endif
#ifndef CUDART_TWO_TO_126_F
#define CUDART_TWO_TO_126_F 8.507059173e37f
#endif
#ifndef CUDART_NORM_HUGE_F
#define CUDART_NORM_HUGE_F 3.402823466e38f
#endif
#ifndef CUDART_TWO_TO_23_F
#define CUDART_TWO_TO_23_F 8388608.0f
#endif
#ifndef CUDART_TWO_TO_24_F
#define CUDART_TWO_TO_24_F 16777216.0f
#endif
#ifndef CUDART_TWO_TO_31_F
#define CUDART_TWO_TO_31_F 2147483648.0f
#endif
#ifndef CUDART_TWO_TO_32_F
#define CUDART_TWO_TO_32_F 4294967296.0f
#endif
#ifndef CUDART_REMQUO_BITS_F
#define CUDART_REMQUO_BITS_F 3
#endif
#ifndef CUDART_REMQUO_MASK_F
#define CUDART_REMQUO_MASK_F (~((~0) << CUDART_REMQUO_BITS_F))
#endif
#ifndef CUDART_TRIG_PLOSS_F
#define CUDART_TRIG_PLOSS_F 105615.0f
#endif

/* ---- double precision ---- */
#ifndef CUDART_INF
#define CUDART_INF __builtin_huge_val()
#endif
#ifndef CUDART_NAN
#define CUDART_NAN __builtin_nan("")
#endif
#ifndef CUDART_NEG_ZERO
#define CUDART_NEG_ZERO (-0.0)
#endif
#ifndef CUDART_MIN_DENORM
#define CUDART_MIN_DENORM 4.9406564584124654e-324
#endif
#ifndef CUDART_ZERO
#define CUDART_ZERO 0.0
#endif
#ifndef CUDART_ONE
#define CUDART_ONE 1.0
#endif
#ifndef CUDART_SQRT_TWO
#define CUDART_SQRT_TWO 1.4142135623730951e+0
#endif
#ifndef CUDART_SQRT_HALF
#define CUDART_SQRT_HALF 7.0710678118654757e-1
#endif
#ifndef CUDART_SQRT_HALF_HI
#define CUDART_SQRT_HALF_HI 7.0710678118654757e-1
#endif
#ifndef CUDART_SQRT_HALF_LO
#define CUDART_SQRT_HALF_LO (-4.8336466567264567e-17)
#endif
#ifndef CUDART_THIRD
#define CUDART_THIRD 3.3333333333333333e-1
#endif
#ifndef CUDART_TWOTHIRD
#define CUDART_TWOTHIRD 6.6666666666666667e-1
#endif
#ifndef CUDART_PIO4
#define CUDART_PIO4 7.8539816339744828e-1
#endif
#ifndef CUDART_PIO4_HI
#define CUDART_PIO4_HI 7.8539816339744828e-1
#endif
#ifndef CUDART_PIO4_LO
#define CUDART_PIO4_LO 3.0616169978683830e-17
#endif
#ifndef CUDART_PIO2
#define CUDART_PIO2 1.5707963267948966e+0
#endif
#ifndef CUDART_PIO2_HI
#define CUDART_PIO2_HI 1.5707963267948966e+0
#endif
#ifndef CUDART_PIO2_LO
#define CUDART_PIO2_LO 6.1232339957367660e-17
#endif
#ifndef CUDART_3PIO4
#define CUDART_3PIO4 2.3561944901923448e+0
#endif
#ifndef CUDART_2_OVER_PI
#define CUDART_2_OVER_PI 6.3661977236758138e-1
#endif
#ifndef CUDART_PI
#define CUDART_PI 3.1415926535897931e+0
#endif
#ifndef CUDART_PI_HI
#define CUDART_PI_HI 3.1415926535897931e+0
#endif
#ifndef CUDART_PI_LO
#define CUDART_PI_LO 1.2246467991473532e-16
#endif
#ifndef CUDART_SQRT_PI
#define CUDART_SQRT_PI 1.7724538509055160e+0
#endif
#ifndef CUDART_SQRT_2PI
#define CUDART_SQRT_2PI 2.5066282746310007e+0
#endif
#ifndef CUDART_SQRT_2PI_HI
#define CUDART_SQRT_2PI_HI 2.5066282746310007e+0
#endif
#ifndef CUDART_SQRT_2PI_LO
#define CUDART_SQRT_2PI_LO (-1.8328579980459167e-16)
#endif
#ifndef CUDART_SQRT_PIO2
#define CUDART_SQRT_PIO2 1.2533141373155003e+0
#endif
#ifndef CUDART_SQRT_PIO2_HI
#define CUDART_SQRT_PIO2_HI 1.2533141373155003e+0
#endif
#ifndef CUDART_SQRT_PIO2_LO
#define CUDART_SQRT_PIO2_LO (-9.1642899902295834e-17)
#endif
#ifndef CUDART_SQRT_2OPI
#define CUDART_SQRT_2OPI 7.9788456080286536e-1
#endif
#ifndef CUDART_L2E
#define CUDART_L2E 1.4426950408889634e+0
#endif
#ifndef CUDART_L2E_HI
#define CUDART_L2E_HI 1.4426950408889634e+0
#endif
#ifndef CUDART_L2E_LO
#define CUDART_L2E_LO 2.0355273740931033e-17
#endif
#ifndef CUDART_L2T
#define CUDART_L2T 3.3219280948873622e+0
#endif
#ifndef CUDART_LG2
#define CUDART_LG2 3.0102999566398120e-1
#endif
#ifndef CUDART_LG2_HI
#define CUDART_LG2_HI 3.0102999566398120e-1
#endif
#ifndef CUDART_LG2_LO
#define CUDART_LG2_LO (-2.8037281277851704e-18)
#endif
#ifndef CUDART_LGE
#define CUDART_LGE 4.3429448190325182e-1
#endif
#ifndef CUDART_LGE_HI
#define CUDART_LGE_HI 4.3429448190325182e-1
#endif
#ifndef CUDART_LGE_LO
#define CUDART_LGE_LO 1.0983196502167651e-17
#endif
#ifndef CUDART_LN2
#define CUDART_LN2 6.9314718055994529e-1
#endif
#ifndef CUDART_LN2_HI
#define CUDART_LN2_HI 6.9314718055994529e-1
#endif
#ifndef CUDART_LN2_LO
#define CUDART_LN2_LO 2.3190468138462996e-17
#endif
#ifndef CUDART_LNT
#define CUDART_LNT 2.3025850929940459e+0
#endif
#ifndef CUDART_LNT_HI
#define CUDART_LNT_HI 2.3025850929940459e+0
#endif
#ifndef CUDART_LNT_LO
#define CUDART_LNT_LO (-2.1707562233822494e-16)
#endif
#ifndef CUDART_LNPI
#define CUDART_LNPI 1.1447298858494002e+0
#endif
#ifndef CUDART_LN2_X_1024
#define CUDART_LN2_X_1024 7.0978271289338397e+2
#endif
#ifndef CUDART_LN2_X_1025
#define CUDART_LN2_X_1025 7.1047586007394398e+2
#endif
#ifndef CUDART_LN2_X_1075
#define CUDART_LN2_X_1075 7.4513321910194122e+2
#endif
#ifndef CUDART_LG2_X_1024
#define CUDART_LG2_X_1024 3.0825471555991675e+2
#endif
#ifndef CUDART_LG2_X_1075
#define CUDART_LG2_X_1075 3.2360724533877976e+2
#endif
#ifndef CUDART_TWO_TO_23
#define CUDART_TWO_TO_23 8388608.0
#endif
#ifndef CUDART_TWO_TO_52
#define CUDART_TWO_TO_52 4503599627370496.0
#endif
#ifndef CUDART_TWO_TO_53
#define CUDART_TWO_TO_53 9007199254740992.0
#endif
#ifndef CUDART_TWO_TO_54
#define CUDART_TWO_TO_54 18014398509481984.0
#endif
#ifndef CUDART_TWO_TO_M54
#define CUDART_TWO_TO_M54 5.5511151231257827e-17
#endif
#ifndef CUDART_TWO_TO_M1022
#define CUDART_TWO_TO_M1022 2.22507385850720140e-308
#endif
#ifndef CUDART_TRIG_PLOSS
#define CUDART_TRIG_PLOSS 2147483648.0
#endif
#ifndef CUDART_DBL2INT_CVT
#define CUDART_DBL2INT_CVT 6755399441055744.0
#endif

#endif /* GMRACE_MATH_CONSTANTS_H */
