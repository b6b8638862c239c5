//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// template<int BS> __global__ kernel instantiated by the host launch block_sum<256><<<4, 256>>>.
#include <cuda_runtime.h>

template <int BS>
__global__ void block_sum(const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (int stride = BS / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main() {
    float *in, *out;
    cudaMalloc((void **)&in, 4 * 256 * sizeof(float));
    cudaMalloc((void **)&out, 4 * sizeof(float));
    block_sum<256><<<4, 256>>>(in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
