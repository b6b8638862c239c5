//pass
//--blockDim=[8,8,4] --gridDim=[2,2,1]
// Three-dimensional __shared__ array vol[4][8][8] indexed by threadIdx.z/y/x in a 3-D block.
#define NX 16
#define NY 16

__global__ void smooth_z(const float *in, float *out) {
    __shared__ float vol[4][8][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int gx = blockIdx.x * 8 + x;
    int gy = blockIdx.y * 8 + y;
    int g = (z * NY + gy) * NX + gx;
    vol[z][y][x] = in[g];
    __syncthreads();
    float below = z > 0 ? vol[z - 1][y][x] : vol[z][y][x];
    float above = z + 1 < (int)blockDim.z ? vol[z + 1][y][x] : vol[z][y][x];
    out[g] = (below + vol[z][y][x] + above) / 3.0f;
}
