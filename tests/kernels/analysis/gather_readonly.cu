//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Gather from shared memory through a data-dependent index after a barrier: only reads in that interval, race-free for every input.
#define BS 128

// idx, in and out hold gridDim.x * BS elements.
__global__ void gather(const int *idx, const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    s[t] = in[g];
    __syncthreads();
    out[g] = s[idx[g] & (BS - 1)];
}
