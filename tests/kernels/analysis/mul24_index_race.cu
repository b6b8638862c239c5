//xfail
//--blockDim=[128,1,1] --gridDim=[8,1,1]
// Global indices built with __umul24 and __mul24, with one block stride too short: the first thread of each row writes the last element of the row before.

// out holds 8 * 128 words; rows holds 8 * 2 words.
__global__ void scale(unsigned *out, int *rows) {
    unsigned i = __umul24(blockIdx.x, blockDim.x - 1) + threadIdx.x;
    out[i] = 2 * i; // RACE
    if (threadIdx.x < 2)
        rows[__mul24((int)blockIdx.x, 2) + (int)threadIdx.x] = (int)blockIdx.x;
}
