// Host code that calls cuBLAS around its launch: with cuBLAS's API declared (the stand-ins'
// `cublas_v2.h`), the function type-checks, so its launch is read and the kernel is analysed
// under it; read as empty, the header would leave the function unread and the launch open.
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define N 1024
#define THREADS 256

__global__ void add_bias(float *c, const float *bias) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] += bias[i % THREADS];
}

__global__ void last_column(float *c, float *out) {
  out[blockIdx.x] = c[blockIdx.x * THREADS + THREADS - 1]; // RACE
}

int main() {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 1;
  float *a, *b, *c, *bias, *out;
  cudaMalloc(&a, N * N * sizeof(float));
  cudaMalloc(&b, N * N * sizeof(float));
  cudaMalloc(&c, N * N * sizeof(float));
  cudaMalloc(&bias, THREADS * sizeof(float));
  cudaMalloc(&out, N * sizeof(float));
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, a, N, b, N, &zero, c, N);
  add_bias<<<N * N / THREADS, THREADS>>>(c, bias);
  last_column<<<N, THREADS>>>(c, out);
  cublasDestroy(handle);
  return 0;
}
