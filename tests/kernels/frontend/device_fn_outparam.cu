//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// __device__ helpers with pointer out-parameters (to locals), an int& reference, and a void helper writing shared memory.
#define PAIRS 128

__device__ void min_max(float a, float b, float *lo, float *hi) {
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
}

__device__ void bump(int &counter, int by) { counter += by; }

__device__ void store_pair(float *s, int i, float lo, float hi) {
    s[2 * i] = lo;
    s[2 * i + 1] = hi;
}

__global__ void sort_pairs(const float *in, float *out, int *swapped) {
    __shared__ float s[2 * PAIRS];
    int t = threadIdx.x;
    int base = blockIdx.x * 2 * PAIRS;
    float a = in[base + 2 * t];
    float b = in[base + 2 * t + 1];
    float lo, hi;
    min_max(a, b, &lo, &hi);
    int swaps = 0;
    bump(swaps, a > b ? 1 : 0);
    store_pair(s, t, lo, hi);
    __syncthreads();
    out[base + t] = s[t];
    out[base + PAIRS + t] = s[PAIRS + t];
    swapped[blockIdx.x * PAIRS + t] = swaps;
}
