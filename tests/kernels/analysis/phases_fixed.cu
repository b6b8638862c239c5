//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Rounds of a barrier loop left by a uniform break: each round reads a neighbour's slot, publishes, and rewrites its own slot; the barrier at the top of the loop orders a round's writes before the next round's reads.

// out holds 64 words.
__global__ void phases(int *out, int n) {
    __shared__ int a[64];
    __shared__ int b[64];
    int t = threadIdx.x;
    a[t] = t;
    for (int r = 0;; r++) {
        __syncthreads();
        int x = a[(t + 1) % 64];
        __syncthreads();
        b[t] = x;
        __syncthreads();
        if (r == n)
            break;
        a[t] = b[(t + 63) % 64] + 1;
    }
    out[t] = a[t] + b[t];
}
