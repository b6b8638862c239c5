//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// half2 products summed in shared memory (cuda_fp16.h): __hfma2, __hadd2, the operators, and a barrier between the tree's steps.
#include <cuda_fp16.h>

__global__ void half_reduce(const half2 *a, const half2 *b, float *out) {
    __shared__ half2 s[64];
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    s[t] = __hfma2(a[g], b[g], __float2half2_rn(0.f));
    __syncthreads();
    for (int step = 32; step > 0; step /= 2) {
        if (t < step)
            s[t] = __hadd2(s[t], s[t + step]);
        __syncthreads();
    }
    if (t == 0) {
        half sum = __low2half(s[0]) + __high2half(s[0]);
        out[blockIdx.x] = __half2float(sum);
    }
}
