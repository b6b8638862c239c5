//xfail
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// The column guard is off by one: the thread at x = w writes the first element of the next row, which the thread at x = 0, y + 1 reads and writes.
__global__ void scale(float *m, int w, int h, float k) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x <= w && y < h)
        m[x + w * y] = k * m[x + w * y]; // RACE
}
