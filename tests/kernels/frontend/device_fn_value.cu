//pass
//--blockDim=[256,1,1] --gridDim=[8,1,1]
// Value-returning __device__ helpers, one calling another, with __noinline__ and __forceinline__.
__device__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

__device__ float square(float x) { return x * x; }

__device__ __noinline__ float sum_of_squares(float a, float b) { return square(a) + square(b); }

__device__ __forceinline__ float clamp_to(float x, float lo, float hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

__global__ void magnitude(const float *x, const float *y, float *out, int n) {
    int i = global_index();
    if (i < n)
        out[i] = clamp_to(sqrtf(sum_of_squares(x[i], y[i])), 0.0f, 100.0f);
}
