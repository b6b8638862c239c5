//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// A barrier loop whose trip count is a parameter: with n = 0 it runs zero times, and the write before it and the read after it share one barrier interval.

// out holds 64 words.
__global__ void zero_trip(int *out, int n) {
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x; // RACE
    for (int i = 0; i < n; i++) {
        __syncthreads();
    }
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64]; // RACE
}
