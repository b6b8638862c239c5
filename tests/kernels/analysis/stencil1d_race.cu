//xfail
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// 1-D 7-point stencil with halos; the right halo is stored at s[t + BS] instead of s[t + BS + R], on top of other threads' cells.
#define BS 128
#define R 3

// in holds gridDim.x * BS + 2 * R elements (R of padding at each end); out holds gridDim.x * BS.
__global__ void stencil1d(const float *in, float *out) {
    __shared__ float s[BS + 2 * R];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[t + R] = in[g + R]; // RACE
    if (t < R) {
        s[t] = in[g];
        s[t + BS] = in[g + BS]; // RACE
    }
    __syncthreads();
    float acc = 0.0f;
    for (int k = -R; k <= R; ++k)
        acc += s[t + R + k];
    out[g] = acc;
}
