// The program's interface: the tile its kernels are written for, and their declarations.
#define TILE 8

__global__ void tileTranspose(float *out, const float *in);
