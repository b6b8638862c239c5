//pass
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Loops containing __syncthreads(): a max reduction with 's >>= 1' and a double-buffered scan with 'off *= 2'.
#define BS 256

__global__ void reduce_then_scan(const int *in, int *maxes, int *scan) {
    __shared__ int m[BS];
    __shared__ int buf[2][BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    int v = in[g];
    m[t] = v;
    buf[0][t] = v;
    __syncthreads();
    for (unsigned s = BS / 2; s > 0; s >>= 1) {
        if (t < s)
            m[t] = max(m[t], m[t + s]);
        __syncthreads();
    }
    int cur = 0;
    for (int off = 1; off < BS; off *= 2) {
        int nxt = 1 - cur;
        buf[nxt][t] = t >= off ? buf[cur][t] + buf[cur][t - off] : buf[cur][t];
        __syncthreads();
        cur = nxt;
    }
    scan[g] = buf[cur][t];
    if (t == 0)
        maxes[blockIdx.x] = m[0];
}
