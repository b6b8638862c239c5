//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// A barrier loop left by a `break` before its counter's update: after the loop `i` is the iteration that broke, and thread 0's write in that iteration meets every thread's read.

// out holds 64 words.
__global__ void break_counter(int *out, int n) {
    __shared__ int s[64];
    int i;
    for (i = 0; i < 8; i++) {
        __syncthreads();
        if (threadIdx.x == 0)
            s[i] = i; // RACE
        if (i == n)
            break;
    }
    out[threadIdx.x] = s[i]; // RACE
}
