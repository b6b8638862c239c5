//xfail
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// 2-D 5-point stencil on a 16x16 tile with a one-cell halo and no barrier between loading the tile and reading neighbours.
#define B 16
#define W 64
#define PW (W + 2)

// in is a (W+2) x (W+2) grid with a one-cell border; out is W x W.
__global__ void stencil2d(const float *in, float *out) {
    __shared__ float s[B + 2][B + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * B + tx;
    int gy = blockIdx.y * B + ty;
    s[ty + 1][tx + 1] = in[(gy + 1) * PW + gx + 1]; // RACE
    if (tx == 0)
        s[ty + 1][0] = in[(gy + 1) * PW + gx];
    if (tx == B - 1)
        s[ty + 1][B + 1] = in[(gy + 1) * PW + gx + 2];
    if (ty == 0)
        s[0][tx + 1] = in[gy * PW + gx + 1];
    if (ty == B - 1)
        s[B + 1][tx + 1] = in[(gy + 2) * PW + gx + 1];
    float c = s[ty + 1][tx + 1];
    float ns = s[ty][tx + 1] + s[ty + 2][tx + 1]; // RACE
    float ew = s[ty + 1][tx] + s[ty + 1][tx + 2]; // RACE
    out[gy * W + gx] = 0.2f * (c + ns + ew);
}
