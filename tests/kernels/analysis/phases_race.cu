//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Rounds of a barrier loop left by a uniform break, without the barrier at the top of the loop: a round's first read meets the neighbour's write at the end of the round before (and, in the first round, its initial write).

// out holds 64 words.
__global__ void phases(int *out, int n) {
    __shared__ int a[64];
    __shared__ int b[64];
    int t = threadIdx.x;
    a[t] = t; // RACE
    for (int r = 0;; r++) {
        int x = a[(t + 1) % 64]; // RACE
        __syncthreads();
        b[t] = x;
        __syncthreads();
        if (r == n)
            break;
        a[t] = b[(t + 63) % 64] + 1; // RACE
    }
    out[t] = a[t] + b[t];
}
