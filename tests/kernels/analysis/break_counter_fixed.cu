//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// The twin of break_counter_race: a barrier after the loop orders the last write before the reads.

// out holds 64 words.
__global__ void break_counter(int *out, int n) {
    __shared__ int s[64];
    int i;
    for (i = 0; i < 8; i++) {
        __syncthreads();
        if (threadIdx.x == 0)
            s[i] = i;
        if (i == n)
            break;
    }
    __syncthreads();
    out[threadIdx.x] = s[i];
}
