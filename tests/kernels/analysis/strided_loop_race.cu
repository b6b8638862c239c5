//xfail
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// Block-stride fill loop (no barrier inside) stepping by 16 instead of blockDim.x, so threads overwrite each other's slots.
#define SIZE 256

__global__ void fill_and_sum(const float *in, float *out) {
    __shared__ float s[SIZE];
    int t = threadIdx.x;
    for (int i = t; i < SIZE; i += 16)
        s[i] = in[blockIdx.x * SIZE + i] * 2.0f; // RACE
    __syncthreads();
    float acc = 0.0f;
    for (int i = t; i < SIZE; i += blockDim.x)
        acc += s[i];
    out[blockIdx.x * blockDim.x + t] = acc;
}
