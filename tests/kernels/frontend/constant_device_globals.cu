//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// __constant__ and __device__ global variables, with and without initialisers, read and written from a kernel.
__constant__ float c_coeffs[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
__constant__ int c_tag;
__device__ float d_bias = 0.5f;
__device__ int d_tags[64];

// in has gridDim.x * blockDim.x + 4 elements; out the same (the first and last two are untouched).
__global__ void conv5(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x + 2;
    float acc = d_bias;
    for (int k = 0; k < 5; ++k)
        acc += c_coeffs[k] * in[i - 2 + k];
    out[i] = acc;
    if (threadIdx.x == 0)
        d_tags[blockIdx.x] = c_tag;
}
