//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// extern __shared__ dynamic buffer carved into two float arrays and an int array by pointer arithmetic [dynamic_shared_bytes=3072].
__global__ void dot_reversed(const float *a, const float *b, float *out, int *sign) {
    extern __shared__ float smem[];
    float *sa = smem;
    float *sb = smem + blockDim.x;
    int *flags = (int *)(sb + blockDim.x);
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sa[t] = a[i];
    sb[t] = b[i];
    flags[t] = a[i] * b[i] < 0.0f;
    __syncthreads();
    int r = blockDim.x - 1 - t;
    out[i] = sa[r] * sb[r];
    sign[i] = flags[r];
}
