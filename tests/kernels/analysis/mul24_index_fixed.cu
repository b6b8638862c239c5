//pass
//--blockDim=[128,1,1] --gridDim=[8,1,1]
// Global indices built with __umul24 and __mul24 (the low 24 bits of each operand multiplied), as the CUDA samples' IMUL macros do: each thread owns its element.

// out holds 8 * 128 words; rows holds 8 * 2 words.
__global__ void scale(unsigned *out, int *rows) {
    unsigned i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    out[i] = 2 * i;
    if (threadIdx.x < 2)
        rows[__mul24((int)blockIdx.x, 2) + (int)threadIdx.x] = (int)blockIdx.x;
}
