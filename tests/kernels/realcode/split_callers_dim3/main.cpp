// The program's host code, in C++: the one call of runTiles.
#include "tiles.h"

int main() {
  float *d;
  cudaMalloc(&d, 4 * 256 * sizeof(float));
  runTiles(d, dim3(4), dim3(16, 16));
  return 0;
}
