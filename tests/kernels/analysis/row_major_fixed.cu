//pass
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// Each thread writes its own element of an h x w matrix of a width only the host knows: x + w * y is one element per (x, y) while 0 <= x < w and no int product overflows (undefined, assumed away).
__global__ void scale(float *m, int w, int h, float k) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        m[x + w * y] = k * m[x + w * y];
}
