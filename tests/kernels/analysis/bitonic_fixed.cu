//pass
//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Bitonic sort of 256 keys in shared memory with a barrier after every compare-exchange step.
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
                float a = s[t];
                float b = s[p];
                bool up = (t & k) == 0;
                s[t] = up ? fminf(a, b) : fmaxf(a, b);
                s[p] = up ? fmaxf(a, b) : fminf(a, b);
            }
            __syncthreads();
        }
    }
    out[blockIdx.x * N + t] = s[t];
}
