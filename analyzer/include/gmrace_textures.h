/*
 * gmrace stand-in CUDA headers: textures (legacy texture references and
 * texture objects).
 *
 * Internal part of gmrace_cuda.h.  Public names: <texture_types.h>,
 * <texture_fetch_functions.h>, <texture_indirect_functions.h>.
 *
 * Device side: clang's __clang_cuda_texture_intrinsics.h implements the
 * toolkit-internal __nv_tex_surf_handler() with inline PTX (tex.1d.v4...);
 * the fetch functions below are thin wrappers over it, as in the toolkit, so
 * they compile to real PTX.  texture<> carries clang's
 * device_builtin_texture_type attribute, which makes a namespace-scope
 * `texture<float, 1> t;` a PTX .texref usable from kernels.
 * Only element-type reads (cudaReadModeElementType) are provided for texture
 * references; cudaReadModeNormalizedFloat textures can be declared and bound
 * but not fetched.  Surfaces are not provided.
 */
#ifndef GMRACE_TEXTURES_H
#define GMRACE_TEXTURES_H

#include "gmrace_vector_types.h"
#include "gmrace_runtime_api.h"
#include <limits.h>

/* ---- types (texture_types.h, driver_types.h) ---- */
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03
};

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2

struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};

struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
};

struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};

struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
};

/* Legacy texture reference; a namespace-scope variable of this type is a
 * device-side .texref. */
template <class __gmr_T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
  }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
  }
};

/* ---- host API ---- */
extern "C" {
extern __host__ struct cudaChannelFormatDesc CUDARTAPI
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
extern __host__ cudaError_t CUDARTAPI cudaBindTexture(
    size_t *offset, const struct textureReference *texref, const void *devPtr,
    const struct cudaChannelFormatDesc *desc, size_t size = UINT_MAX);
extern __host__ cudaError_t CUDARTAPI cudaBindTexture2D(
    size_t *offset, const struct textureReference *texref, const void *devPtr,
    const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
    size_t pitch);
extern __host__ cudaError_t CUDARTAPI
cudaUnbindTexture(const struct textureReference *texref);
extern __host__ cudaError_t CUDARTAPI cudaCreateTextureObject(
    cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
    const struct cudaTextureDesc *pTexDesc, const void *pResViewDesc);
extern __host__ cudaError_t CUDARTAPI
cudaDestroyTextureObject(cudaTextureObject_t texObject);
extern __host__ cudaError_t CUDARTAPI
cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                size_t width, size_t height = 0, unsigned int flags = 0);
extern __host__ cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArray(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToArray(
    cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
    size_t count, enum cudaMemcpyKind kind);
} /* extern "C" */

/* cudaCreateChannelDesc<__gmr_T>(): channel layout from the element type. */
template <class __gmr_T>
static __inline__ __host__ struct cudaChannelFormatDesc
cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
#define GMRACE_CHANNEL_DESC(__gmr_T, X, Y, Z, W, KIND)                               \
  template <>                                                                  \
  __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc<__gmr_T>(   \
      void) {                                                                  \
    return cudaCreateChannelDesc(X, Y, Z, W, KIND);                            \
  }
GMRACE_CHANNEL_DESC(char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
GMRACE_CHANNEL_DESC(unsigned char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
GMRACE_CHANNEL_DESC(short, 16, 0, 0, 0, cudaChannelFormatKindSigned)
GMRACE_CHANNEL_DESC(unsigned short, 16, 0, 0, 0, cudaChannelFormatKindUnsigned)
GMRACE_CHANNEL_DESC(int, 32, 0, 0, 0, cudaChannelFormatKindSigned)
GMRACE_CHANNEL_DESC(unsigned int, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
GMRACE_CHANNEL_DESC(float, 32, 0, 0, 0, cudaChannelFormatKindFloat)
GMRACE_CHANNEL_DESC(float2, 32, 32, 0, 0, cudaChannelFormatKindFloat)
GMRACE_CHANNEL_DESC(float4, 32, 32, 32, 32, cudaChannelFormatKindFloat)
GMRACE_CHANNEL_DESC(int2, 32, 32, 0, 0, cudaChannelFormatKindSigned)
GMRACE_CHANNEL_DESC(int4, 32, 32, 32, 32, cudaChannelFormatKindSigned)
GMRACE_CHANNEL_DESC(uint2, 32, 32, 0, 0, cudaChannelFormatKindUnsigned)
GMRACE_CHANNEL_DESC(uint4, 32, 32, 32, 32, cudaChannelFormatKindUnsigned)
GMRACE_CHANNEL_DESC(uchar4, 8, 8, 8, 8, cudaChannelFormatKindUnsigned)
#undef GMRACE_CHANNEL_DESC

template <class __gmr_T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<__gmr_T, dim, readMode> &tex,
                const void *devPtr, const struct cudaChannelFormatDesc &desc,
                size_t size = UINT_MAX) {
  return ::cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class __gmr_T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<__gmr_T, dim, readMode> &tex,
                const void *devPtr, size_t size = UINT_MAX) {
  return ::cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class __gmr_T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<__gmr_T, dim, readMode> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc,
                  size_t width, size_t height, size_t pitch) {
  return ::cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height,
                             pitch);
}
template <class __gmr_T, int dim, enum cudaTextureReadMode readMode>
static __inline__ __host__ cudaError_t
cudaUnbindTexture(const struct texture<__gmr_T, dim, readMode> &tex) {
  return ::cudaUnbindTexture(&tex);
}

/* ---- device fetches ---- */
/* clang's texture header names template parameters N and T; kernels often define those as
 * macros (-DN=...), so they are set aside while it is read. */
#pragma push_macro("N")
#pragma push_macro("T")
#undef N
#undef T
#include <__clang_cuda_texture_intrinsics.h>
#pragma pop_macro("T")
#pragma pop_macro("N")

/* Texture references, element-type reads. */
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T
tex1Dfetch(texture<__gmr_T, cudaTextureType1D, cudaReadModeElementType> t, int x) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex1Dfetch_v2", (__gmr_T *)0, &r, t, x);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T
tex1D(texture<__gmr_T, cudaTextureType1D, cudaReadModeElementType> t, float x) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex1D_v2", (__gmr_T *)0, &r, t, x);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T
tex2D(texture<__gmr_T, cudaTextureType2D, cudaReadModeElementType> t, float x,
      float y) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex2D_v2", (__gmr_T *)0, &r, t, x, y);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T
tex3D(texture<__gmr_T, cudaTextureType3D, cudaReadModeElementType> t, float x,
      float y, float z) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex3D_v2", (__gmr_T *)0, &r, t, x, y, z);
  return r;
}

/* Texture objects: the element type is the explicit template argument,
 * e.g. tex1Dfetch<float>(obj, i). */
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T tex1Dfetch(cudaTextureObject_t obj,
                                               int x) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex1Dfetch_v2", &r, obj, x);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T tex1D(cudaTextureObject_t obj, float x) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex1D_v2", &r, obj, x);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T tex2D(cudaTextureObject_t obj, float x,
                                          float y) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex2D_v2", &r, obj, x, y);
  return r;
}
template <class __gmr_T>
static __device__ __forceinline__ __gmr_T tex3D(cudaTextureObject_t obj, float x,
                                          float y, float z) {
  __gmr_T r;
  __nv_tex_surf_handler("__tex3D_v2", &r, obj, x, y, z);
  return r;
}

#endif /* GMRACE_TEXTURES_H */
