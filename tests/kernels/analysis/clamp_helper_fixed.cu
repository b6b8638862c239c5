//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// A sharpening filter over a shared row with a halo; the result is clamped by a helper whose
// early returns depend on the data.
#define BS 128

__device__ unsigned char clamp255(int v) {
    if (v < 0)
        return 0;
    if (v > 255)
        return 255;
    return (unsigned char)v;
}

__global__ void sharpen(const int *in, unsigned char *out) {
    __shared__ int row[BS + 2];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    row[t + 1] = in[g];
    if (t == 0) {
        row[0] = 0;
        row[BS + 1] = 0;
    }
    __syncthreads();
    unsigned char c = clamp255(3 * row[t + 1] - row[t] - row[t + 2]);
    __syncthreads();
    row[t + 1] = c;
    __syncthreads();
    out[g] = (unsigned char)(row[t + 1] / 2 + row[BS - t] / 2);
}
