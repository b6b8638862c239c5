/*
 * gmrace stand-in for cuFFT's multi-GPU API, <cufftXt.h>: descriptors of data
 * spread over GPUs (kernels get each GPU's part as a plain pointer) and the
 * Xt plan, copy and execute functions.  Declarations only.
 */
#ifndef GMRACE_CUFFTXT_H
#define GMRACE_CUFFTXT_H

#include "cufft.h"

#define MAX_CUDA_DESCRIPTOR_GPUS 64

typedef struct cudaXtDesc_t {
  int version;
  int nGPUs;
  int GPUs[MAX_CUDA_DESCRIPTOR_GPUS];
  void *data[MAX_CUDA_DESCRIPTOR_GPUS];
  size_t size[MAX_CUDA_DESCRIPTOR_GPUS];
  void *cudaXtState;
} cudaXtDesc;

typedef enum cudaLibXtDescType_t {
  LIB_FORMAT_CUFFT = 0x0,
  LIB_FORMAT_UNDEFINED = 0x1
} libFormat;

typedef struct cudaLibXtDesc_t {
  int version;
  cudaXtDesc *descriptor;
  libFormat library;
  int subFormat;
  void *libDescriptor;
} cudaLibXtDesc;

typedef enum cufftXtSubFormat_t {
  CUFFT_XT_FORMAT_INPUT = 0x00,
  CUFFT_XT_FORMAT_OUTPUT = 0x01,
  CUFFT_XT_FORMAT_INPLACE = 0x02,
  CUFFT_XT_FORMAT_INPLACE_SHUFFLED = 0x03,
  CUFFT_XT_FORMAT_1D_INPUT_SHUFFLED = 0x04,
  CUFFT_FORMAT_UNDEFINED = 0x05
} cufftXtSubFormat;

typedef enum cufftXtCopyType_t {
  CUFFT_COPY_HOST_TO_DEVICE = 0x00,
  CUFFT_COPY_DEVICE_TO_HOST = 0x01,
  CUFFT_COPY_DEVICE_TO_DEVICE = 0x02,
  CUFFT_COPY_UNDEFINED = 0x03
} cufftXtCopyType;

#define GMRACE_FFT extern __host__ cufftResult

GMRACE_FFT cufftXtSetGPUs(cufftHandle handle, int nGPUs, int *whichGPUs);
GMRACE_FFT cufftXtMalloc(cufftHandle plan, cudaLibXtDesc **descriptor,
                         cufftXtSubFormat format);
GMRACE_FFT cufftXtMemcpy(cufftHandle plan, void *dstPointer, void *srcPointer,
                         cufftXtCopyType type);
GMRACE_FFT cufftXtFree(cudaLibXtDesc *descriptor);
GMRACE_FFT cufftXtSetWorkArea(cufftHandle plan, void **workArea);
GMRACE_FFT cufftXtExecDescriptorC2C(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output, int direction);
GMRACE_FFT cufftXtExecDescriptorR2C(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output);
GMRACE_FFT cufftXtExecDescriptorC2R(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output);
GMRACE_FFT cufftXtExecDescriptorZ2Z(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output, int direction);
GMRACE_FFT cufftXtExecDescriptorD2Z(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output);
GMRACE_FFT cufftXtExecDescriptorZ2D(cufftHandle plan, cudaLibXtDesc *input,
                                    cudaLibXtDesc *output);
GMRACE_FFT cufftXtExecDescriptor(cufftHandle plan, cudaLibXtDesc *input,
                                 cudaLibXtDesc *output, int direction);

#undef GMRACE_FFT
#endif /* GMRACE_CUFFTXT_H */
