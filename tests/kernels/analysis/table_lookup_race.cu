//xfail
//--blockDim=[256,1,1] --gridDim=[8,1,1]
// As table_lookup_fixed, but the table is filled in the same barrier interval as the lookups:
// a lookup at an index another thread is still writing races.
#define BS 256

__global__ void substitute(const unsigned char *in, const unsigned char *sbox, unsigned char *out) {
    __shared__ unsigned char table[256];
    __shared__ unsigned char staged[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    staged[t] = in[g];
    __syncthreads();
    table[t] = sbox[t]; // RACE
    out[g] = table[staged[t]]; // RACE
}
