//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Each thread adds its neighbour's slot to a block total with an atomic whose operand reads shared memory; without the barrier the read meets the neighbour's write.

// in holds 128 ints, out 2.
__global__ void neighbour_total(const int *in, int *out) {
    __shared__ int s[64];
    __shared__ int total;
    unsigned int t = threadIdx.x;
    if (t == 0)
        total = 0;
    __syncthreads();
    s[t] = in[blockIdx.x * 64 + t]; // RACE
    atomicAdd(&total, s[(t + 1) % 64]); // RACE
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = total;
}
