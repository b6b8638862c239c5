//pass
//--blockDim=[16,16,1] --gridDim=[4,4,1]
// Host main with <cstdio>/<cstdlib>: cudaMalloc, cudaMemcpy, dim3 launches, a launch with dynamic shared memory, cudaDeviceSynchronize.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define W 64
#define H 64
#define N (W * H)

__global__ void scale2d(const float *in, float *out, float f) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < W && y < H)
        out[y * W + x] = in[y * W + x] * f;
}

// Launched as reverse_chunks<<<N/256, 256, 1024>>>: 1024 bytes of dynamic shared memory per block.
__global__ void reverse_chunks(const float *in, float *out) {
    extern __shared__ float chunk[];
    int t = threadIdx.x + threadIdx.y * blockDim.x;
    int nt = blockDim.x * blockDim.y;
    int b = blockIdx.x + blockIdx.y * gridDim.x;
    int i = b * nt + t;
    if (i < N)
        chunk[t] = in[i];
    __syncthreads();
    int j = b * nt + (nt - 1 - t);
    if (i < N && j < N)
        out[i] = chunk[nt - 1 - t];
}

int main(int argc, char **argv) {
    float factor = argc > 1 ? (float)atof(argv[1]) : 2.0f;
    size_t bytes = N * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < N; ++i)
        h[i] = (float)(rand() % 100);
    float *d_in, *d_mid, *d_out;
    cudaMalloc((void **)&d_in, bytes);
    cudaMalloc((void **)&d_mid, bytes);
    cudaMalloc((void **)&d_out, bytes);
    cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice);
    dim3 grid(4, 4);
    dim3 block(16, 16);
    scale2d<<<grid, block>>>(d_in, d_mid, factor);
    reverse_chunks<<<N / 256, 256, 1024>>>(d_mid, d_out);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d_out, bytes, cudaMemcpyDeviceToHost);
    printf("h[0] = %f, h[N-1] = %f\n", h[0], h[N - 1]);
    cudaFree(d_in);
    cudaFree(d_mid);
    cudaFree(d_out);
    free(h);
    return 0;
}
