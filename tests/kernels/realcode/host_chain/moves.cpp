// Host code the program's main.cu includes; it includes the kernels it launches.
#include "kernels.cu"

static void runMoves(idx_t *d) {
  countMoves<<<2, 128>>>(d);
}
