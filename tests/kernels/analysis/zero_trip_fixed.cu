//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// The twin of zero_trip_race: a do-while loop runs its body, and so its barrier, at least once.

// out holds 64 words.
__global__ void zero_trip(int *out, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    int i = 0;
    do {
        __syncthreads();
        i++;
    } while (i < n);
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
