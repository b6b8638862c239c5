// cuBLAS stand-in: host code of the v2 API (with its `_v2` names and the types
// of GemmEx) and of the legacy API type-checks beside a kernel.
#include <cublas_v2.h>
#include <cublas.h>

__global__ void bias(float *c, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] += b[i % 16];
}

cublasStatus_t run(cublasHandle_t h, cudaStream_t s, const float *a,
                   const float *b, float *c, const __half *ha, __half *hc) {
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(h, s);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 16, 16, 16,
                                  &one, a, 16, b, 16, &zero, c, 16);
  if (st != CUBLAS_STATUS_SUCCESS)
    return st;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, ha, CUDA_R_16F,
               16, ha, CUDA_R_16F, 16, &zero, hc, CUDA_R_16F, 16,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  int best;
  cublasIsamax_v2(h, 256, c, 1, &best);
  cublasSaxpy(256, 2.0f, a, 1, c, 1);
  bias<<<1, 256, 0, s>>>(c, b, 256);
  return cublasGetError();
}
