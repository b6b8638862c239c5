// Legacy texture references and texture objects.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texA;
texture<unsigned, 1, cudaReadModeElementType> texKeys;
texture<float4, 2> tex2d;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> texNorm;

__global__ void fetch(float *out, cudaTextureObject_t obj, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = tex2D(tex2d, i + 0.5f, 0.5f);
    out[i] = tex1Dfetch(texA, i) + (float)tex1Dfetch(texKeys, i) + v.x +
             tex1D(texA, i * 0.5f) + tex1Dfetch<float>(obj, i) +
             tex2D<float>(obj, 0.5f, 0.5f);
  }
}

int main() {
  float *d;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  size_t offset;
  cudaBindTexture(&offset, texA, d, desc, 1024 * sizeof(float));
  cudaBindTexture(0, texKeys, d, 1024 * sizeof(unsigned));
  texA.filterMode = cudaFilterModePoint;

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = 1024 * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &res, &td, nullptr);
  fetch<<<4, 256>>>(d, obj, 1024);
  cudaDestroyTextureObject(obj);
  cudaUnbindTexture(texA);
  return 0;
}

// The driver API's texture objects are the runtime's handles (simpleTextureDrv's kernel).
#include <cuda.h>
__global__ void drv_object(float *out, CUtexObject tex) {
  out[threadIdx.x] = tex2D<float>(tex, threadIdx.x + 0.5f, 0.5f);
}
