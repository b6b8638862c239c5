//xfail
//--blockDim=[16,16,1] --gridDim=[2,2,1]
// 2-D block: row 0 of the block sums each column of a 16x16 shared tile without waiting for the other rows to store it.
#define B 16
#define W 32

// in is W x W; colsum holds gridDim.y rows of W column sums.
__global__ void column_sums(const float *in, float *colsum) {
    __shared__ float s[B][B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * B + tx;
    int gy = blockIdx.y * B + ty;
    s[ty][tx] = in[gy * W + gx]; // RACE
    if (ty == 0) {
        float acc = 0.0f;
        for (int k = 0; k < B; ++k)
            acc += s[k][tx]; // RACE
        colsum[blockIdx.y * W + gx] = acc;
    }
}
