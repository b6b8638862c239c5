//xfail
//--blockDim=[8,8,4] --gridDim=[2,2,1]
// 3-D block: the z == 0 layer sums a 4x8x8 shared volume over z before the other layers are known to have stored it.
#define NX 16
#define NY 16

// in is a 4 x NY x NX volume; out is NY x NX.
__global__ void sum_over_z(const float *in, float *out) {
    __shared__ float s[4][8][8];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int gx = blockIdx.x * 8 + x;
    int gy = blockIdx.y * 8 + y;
    s[z][y][x] = in[(z * NY + gy) * NX + gx]; // RACE
    if (z == 0) {
        float acc = 0.0f;
        for (int k = 0; k < (int)blockDim.z; ++k)
            acc += s[k][y][x]; // RACE
        out[gy * NX + gx] = acc;
    }
}
