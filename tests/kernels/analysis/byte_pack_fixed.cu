//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Threads store single bytes of a shared word array (four lanes per word, disjoint bytes: no conflict), barrier, then read whole words.
__global__ void pack_bytes(const int *in, unsigned *words) {
    __shared__ unsigned packed[32];
    unsigned char *bytes = (unsigned char *)packed;
    int t = threadIdx.x;
    bytes[t] = (unsigned char)(in[blockIdx.x * 128 + t] & 0xff);
    __syncthreads();
    if (t < 32)
        words[blockIdx.x * 32 + t] = packed[t];
}
