//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Scatter through an index array into shared memory: race-free when each block's 128 idx values are distinct mod 128. // DATA-DEPENDENT
#define BS 128

// idx, in and out hold gridDim.x * BS elements.
__global__ void permute(const int *idx, const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[idx[g] & (BS - 1)] = in[g];
    __syncthreads();
    out[g] = s[t];
}
