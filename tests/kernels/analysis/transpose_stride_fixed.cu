//pass
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// A tiled transpose of an h x w matrix with w and h free: y * h + x overlaps between two threads only if y * h overflows int, which is undefined and assumed not to happen.
#define TILE 16

__global__ void transpose(float *out, const float *in, int w, int h) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < h && y < w)
        out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
