//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// __syncthreads() under 'if (t < 16)' and no barrier after it: threads 16..63 skip it alive (barrier divergence) and read s unordered with its writes.
__global__ void skip_barrier(int *g) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = g[t]; // RACE
    if (t < 16)
        __syncthreads(); // DIVERGENCE
    g[t] = s[63 - t]; // RACE
}
