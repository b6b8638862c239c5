// The tiles the program's main.cpp asks for; tiles.cu defines runTiles.
#include <cuda_runtime.h>

void runTiles(float *d, dim3 grid, dim3 block);
