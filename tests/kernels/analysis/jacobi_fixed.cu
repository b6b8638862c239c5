//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Iterative 1-D Jacobi smoothing in shared memory with two barriers per iteration (after the reads, after the update).
#define BS 128
#define ITERS 8

__global__ void jacobi1d(const float *in, float *out) {
    __shared__ float s[BS + 2];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[t + 1] = in[g];
    if (t == 0) {
        s[0] = 0.0f;
        s[BS + 1] = 0.0f;
    }
    __syncthreads();
    for (int it = 0; it < ITERS; ++it) {
        float v = 0.5f * (s[t] + s[t + 2]);
        __syncthreads();
        s[t + 1] = v;
        __syncthreads();
    }
    out[g] = s[t + 1];
}
