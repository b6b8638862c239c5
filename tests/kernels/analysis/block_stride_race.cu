//xfail
//--blockDim=[96,1,1] --gridDim=[3,1,1]
// Block-stride loop over an int counter stepped by the unsigned blockDim.x, with an off-by-one bound: the last byte of a row is the first of the next block's row.
#define ROW 200

// out holds 3 * ROW + 1 bytes.
__global__ void fill_rows(unsigned char *out) {
    unsigned char *row = out + blockIdx.x * ROW;
    for (int i = threadIdx.x; i <= ROW; i += blockDim.x)
        row[i] = (unsigned char)i; // RACE
}
