//xfail
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Hillis-Steele inclusive scan in place in one shared buffer: a thread reads s[t - off] while its owner updates it.
#define BS 256

__global__ void scan_hs(const int *in, int *out) {
    __shared__ int s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[t] = in[g];
    __syncthreads();
    for (int off = 1; off < BS; off *= 2) {
        if (t >= off)
            s[t] += s[t - off]; // RACE
        __syncthreads();
    }
    out[g] = s[t];
}
