//xfail
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Bitonic sort of 256 keys in shared memory with the barrier only after each merge stage, not after each compare-exchange step.
#define N 256

__global__ void bitonic_sort(const float *in, float *out) {
    __shared__ float s[N];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (unsigned k = 2; k <= N; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned p = t ^ j;
            if (p > t) {
                float a = s[t]; // RACE
                float b = s[p]; // RACE
                bool up = (t & k) == 0;
                s[t] = up ? fminf(a, b) : fmaxf(a, b); // RACE
                s[p] = up ? fmaxf(a, b) : fminf(a, b); // RACE
            }
        }
        __syncthreads();
    }
    out[blockIdx.x * N + t] = s[t];
}
