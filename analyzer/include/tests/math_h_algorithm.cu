// C headers (<math.h>, <stdlib.h>, <stdio.h>, <assert.h>) and <algorithm>
// with kernels; device code uses the device overloads, host code the C
// library.
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <assert.h>
#include <string.h>
#include <algorithm>
#include "math_functions.h"

using namespace std;

__global__ void k(float *a, double *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] = sqrtf(a[i]) + expf(a[i]) + fabsf(a[i]) + floorf(a[i]);
  b[i] = sqrt(b[i]) + exp(b[i]) + fabs(b[i]) + pow(b[i], 2.0);
  c[i] = std::min(c[i], 10) + std::max(c[i], 0) + min(c[i], n) + max(c[i], 1);
  c[i] += abs(c[i]);
  memcpy(&a[0], &a[1], sizeof(float));
  memset(&c[0], 0, sizeof(int));
  assert(c[i] >= 0);
}

int main() {
  float *a = (float *)malloc(16 * sizeof(float));
  memset(a, 0, 16 * sizeof(float));
  double r = sqrt(2.0) + floor(1.5) + fabs(-1.0);
  int m = std::max(3, 4) + abs(-2);
  assert(m > 0);
  printf("%f %d\n", r, m);
  free(a);
  return 0;
}
