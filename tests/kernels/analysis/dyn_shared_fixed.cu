//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Two arrays carved from one extern __shared__ buffer, the second starting at blockDim.x, so they are disjoint [dynamic_shared_bytes=1024].
__global__ void split_buffers(const float *a, const float *b, float *out) {
    extern __shared__ float smem[];
    float *sa = smem;
    float *sb = smem + blockDim.x;
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    sa[t] = a[g];
    sb[t] = b[g];
    __syncthreads();
    out[g] = sa[t] + sb[blockDim.x - 1 - t];
}
