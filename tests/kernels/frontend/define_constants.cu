//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// #define constants: object-like, parenthesised expression and function-like macros for sizes and indices.
#define BLOCK 256
#define TAPS 4
#define SCALE (1.0f / TAPS)
#define IDX(b, t) ((b) * BLOCK + (t))

// in has 4*BLOCK + TAPS - 1 elements, out has 4*BLOCK.
__global__ void moving_average(const float *in, float *out) {
    __shared__ float s[BLOCK + TAPS - 1];
    int t = threadIdx.x;
    s[t] = in[IDX(blockIdx.x, t)];
    if (t < TAPS - 1)
        s[BLOCK + t] = in[IDX(blockIdx.x, t) + BLOCK];
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < TAPS; ++k)
        acc += s[t + k];
    out[IDX(blockIdx.x, t)] = acc * SCALE;
}
