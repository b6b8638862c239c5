//xfail
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Two arrays carved from one extern __shared__ buffer, the second at blockDim.x/2 instead of blockDim.x, so they overlap [dynamic_shared_bytes=1024].
__global__ void split_buffers(const float *a, const float *b, float *out) {
    extern __shared__ float smem[];
    float *sa = smem;
    float *sb = smem + blockDim.x / 2;
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    sa[t] = a[g]; // RACE
    sb[t] = b[g]; // RACE
    __syncthreads();
    out[g] = sa[t] + sb[blockDim.x - 1 - t];
}
