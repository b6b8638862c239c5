// cuFFT (single and multi-GPU), cuComplex and OpenGL interop stand-ins: host code of the
// CUDA samples' shape type-checks, and a kernel over cufftComplex compiles to PTX.
#include <cufftXt.h>
#include <cuda_gl_interop.h>

__global__ void scale(cufftComplex *a, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = cuCmulf(a[i], make_cuComplex(s, 0.0f));
}

void host(cudaLibXtDesc *d, cufftHandle plan, GLuint vbo) {
  int gpus[2] = {0, 1};
  cufftXtSetGPUs(plan, 2, gpus);
  cufftXtMalloc(plan, &d, CUFFT_XT_FORMAT_INPLACE);
  cufftXtExecDescriptorC2C(plan, d, d, CUFFT_FORWARD);
  scale<<<1, 64>>>((cufftComplex *)d->descriptor->data[0], 64, 0.5f);
  struct cudaGraphicsResource *res;
  cudaGraphicsGLRegisterBuffer(&res, vbo, cudaGraphicsMapFlagsWriteDiscard);
  void *p;
  size_t bytes;
  cudaGraphicsMapResources(1, &res, 0);
  cudaGraphicsResourceGetMappedPointer(&p, &bytes, res);
}
