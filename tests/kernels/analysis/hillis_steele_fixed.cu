//pass
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Hillis-Steele inclusive scan with double buffering: each step reads buffer pin and writes buffer pout, then swaps.
#define BS 256

__global__ void scan_hs(const int *in, int *out) {
    __shared__ int buf[2 * BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    int pout = 0, pin = 1;
    buf[pout * BS + t] = in[g];
    __syncthreads();
    for (int off = 1; off < BS; off *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (t >= off)
            buf[pout * BS + t] = buf[pin * BS + t] + buf[pin * BS + t - off];
        else
            buf[pout * BS + t] = buf[pin * BS + t];
        __syncthreads();
    }
    out[g] = buf[pout * BS + t];
}
