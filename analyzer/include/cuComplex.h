/*
 * gmrace stand-in for the CUDA toolkit's <cuComplex.h>: single and double
 * precision complex numbers as float2/double2, with the toolkit's inline
 * operations (division and modulus without the toolkit's scaling, which only
 * changes rounding).
 */
#ifndef GMRACE_CUCOMPLEX_H
#define GMRACE_CUCOMPLEX_H

#include "gmrace_cuda.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define GMRACE_CX static __inline__ __host__ __device__

GMRACE_CX float cuCrealf(cuFloatComplex x) { return x.x; }
GMRACE_CX float cuCimagf(cuFloatComplex x) { return x.y; }
GMRACE_CX cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex c;
  c.x = r;
  c.y = i;
  return c;
}
GMRACE_CX cuFloatComplex cuConjf(cuFloatComplex x) {
  return make_cuFloatComplex(x.x, -x.y);
}
GMRACE_CX cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
GMRACE_CX cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
GMRACE_CX cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
  return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
GMRACE_CX cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
  float d = y.x * y.x + y.y * y.y;
  return make_cuFloatComplex((x.x * y.x + x.y * y.y) / d,
                             (x.y * y.x - x.x * y.y) / d);
}
GMRACE_CX float cuCabsf(cuFloatComplex x) { return sqrtf(x.x * x.x + x.y * x.y); }
GMRACE_CX cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y,
                                 cuFloatComplex d) {
  return cuCaddf(cuCmulf(x, y), d);
}

GMRACE_CX double cuCreal(cuDoubleComplex x) { return x.x; }
GMRACE_CX double cuCimag(cuDoubleComplex x) { return x.y; }
GMRACE_CX cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex c;
  c.x = r;
  c.y = i;
  return c;
}
GMRACE_CX cuDoubleComplex cuConj(cuDoubleComplex x) {
  return make_cuDoubleComplex(x.x, -x.y);
}
GMRACE_CX cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
GMRACE_CX cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
GMRACE_CX cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
  return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
GMRACE_CX cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
  double d = y.x * y.x + y.y * y.y;
  return make_cuDoubleComplex((x.x * y.x + x.y * y.y) / d,
                              (x.y * y.x - x.x * y.y) / d);
}
GMRACE_CX double cuCabs(cuDoubleComplex x) { return sqrt(x.x * x.x + x.y * x.y); }
GMRACE_CX cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y,
                                 cuDoubleComplex d) {
  return cuCadd(cuCmul(x, y), d);
}

GMRACE_CX cuComplex make_cuComplex(float x, float y) {
  return make_cuFloatComplex(x, y);
}
GMRACE_CX cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
GMRACE_CX cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}

#undef GMRACE_CX
#endif /* GMRACE_CUCOMPLEX_H */
