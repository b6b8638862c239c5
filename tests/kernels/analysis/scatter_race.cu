//xfail
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Scatter through an index array with a wrong mask (& 63): 128 threads write 64 shared slots, so it races for every input. // DATA-DEPENDENT
#define BS 128

// idx, in and out hold gridDim.x * BS elements.
__global__ void permute(const int *idx, const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[idx[g] & (BS / 2 - 1)] = in[g]; // RACE
    __syncthreads();
    out[g] = s[t];
}
