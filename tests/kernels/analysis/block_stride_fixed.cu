//pass
//--blockDim=[96,1,1] --gridDim=[3,1,1]
// Block-stride loop over an int counter stepped by the unsigned blockDim.x (an unsigned add, so only the loop test rules out wrap-around): each block fills its own row.
#define ROW 200

// out holds 3 * ROW bytes.
__global__ void fill_rows(unsigned char *out) {
    unsigned char *row = out + blockIdx.x * ROW;
    for (int i = threadIdx.x; i < ROW; i += blockDim.x)
        row[i] = (unsigned char)i;
}
