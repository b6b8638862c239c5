//pass
//--blockDim=[256,1,1] --gridDim=[8,1,1]
// A substitution table in shared memory, looked up at indices read from memory: the lookups
// may touch any entry, but the table is only written before the barrier.
#define BS 256

__global__ void substitute(const unsigned char *in, const unsigned char *sbox, unsigned char *out) {
    __shared__ unsigned char table[256];
    __shared__ unsigned char staged[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    table[t] = sbox[t];
    staged[t] = in[g];
    __syncthreads();
    out[g] = table[staged[t]] ^ table[staged[(t + 1) % BS]];
}
