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
 * Texture references support both read modes (cudaReadModeNormalizedFloat
 * fetches return float / floatN).  Surfaces are declarations only.
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
#define cudaTextureTypeCubemapLayered 0xFC

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
template <class __gmr_T, int __gmr_texType = cudaTextureType1D,
          enum cudaTextureReadMode __gmr_mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__
  texture(int __gmr_norm = 0,
          enum cudaTextureFilterMode __gmr_fm = cudaFilterModePoint,
          enum cudaTextureAddressMode __gmr_am = cudaAddressModeClamp) {
    normalized = __gmr_norm;
    filterMode = __gmr_fm;
    addressMode[0] = addressMode[1] = addressMode[2] = __gmr_am;
  }
  __host__ texture(int __gmr_norm, enum cudaTextureFilterMode __gmr_fm,
                   enum cudaTextureAddressMode __gmr_am,
                   struct cudaChannelFormatDesc __gmr_desc) {
    normalized = __gmr_norm;
    filterMode = __gmr_fm;
    addressMode[0] = addressMode[1] = addressMode[2] = __gmr_am;
    channelDesc = __gmr_desc;
  }
};

/* ---- host API ---- */
extern "C" {
extern __host__ struct cudaChannelFormatDesc CUDARTAPI
cudaCreateChannelDesc(int __gmr_x, int __gmr_y, int __gmr_z, int __gmr_w,
                      enum cudaChannelFormatKind __gmr_f);
extern __host__ cudaError_t CUDARTAPI
cudaBindTexture(size_t *__gmr_offset, const struct textureReference *__gmr_ref,
                const void *__gmr_ptr,
                const struct cudaChannelFormatDesc *__gmr_desc,
                size_t __gmr_size = UINT_MAX);
extern __host__ cudaError_t CUDARTAPI cudaBindTexture2D(
    size_t *__gmr_offset, const struct textureReference *__gmr_ref,
    const void *__gmr_ptr, const struct cudaChannelFormatDesc *__gmr_desc,
    size_t __gmr_width, size_t __gmr_height, size_t __gmr_pitch);
extern __host__ cudaError_t CUDARTAPI
cudaUnbindTexture(const struct textureReference *__gmr_ref);
extern __host__ cudaError_t CUDARTAPI cudaCreateTextureObject(
    cudaTextureObject_t *__gmr_obj, const struct cudaResourceDesc *__gmr_res,
    const struct cudaTextureDesc *__gmr_tex, const void *__gmr_view);
extern __host__ cudaError_t CUDARTAPI
cudaDestroyTextureObject(cudaTextureObject_t __gmr_obj);
extern __host__ cudaError_t CUDARTAPI cudaMallocArray(
    cudaArray_t *__gmr_array, const struct cudaChannelFormatDesc *__gmr_desc,
    size_t __gmr_width, size_t __gmr_height = 0, unsigned int __gmr_flags = 0);
extern __host__ cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t __gmr_array);
extern __host__ cudaError_t CUDARTAPI cudaMemcpy2DToArray(
    cudaArray_t __gmr_dst, size_t __gmr_woff, size_t __gmr_hoff,
    const void *__gmr_src, size_t __gmr_spitch, size_t __gmr_width,
    size_t __gmr_height, enum cudaMemcpyKind __gmr_kind);
extern __host__ cudaError_t CUDARTAPI cudaMemcpyToArray(
    cudaArray_t __gmr_dst, size_t __gmr_woff, size_t __gmr_hoff,
    const void *__gmr_src, size_t __gmr_count, enum cudaMemcpyKind __gmr_kind);
} /* extern "C" */

/* cudaCreateChannelDesc<__gmr_T>(): channel layout from the element type. */
template <class __gmr_T>
static __inline__ __host__ struct cudaChannelFormatDesc
cudaCreateChannelDesc(void) {
  return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}
#define GMRACE_CHANNEL_DESC(ELEM, X, Y, Z, W, KIND)                            \
  template <>                                                                  \
  __inline__ __host__ struct cudaChannelFormatDesc                             \
  cudaCreateChannelDesc<ELEM>(void) {                                          \
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

#define GMRACE_TEXREF_T                                                        \
  template <class __gmr_T, int __gmr_dim, enum cudaTextureReadMode __gmr_rm>   \
  static __inline__ __host__ cudaError_t
GMRACE_TEXREF_T
cudaBindTexture(size_t *__gmr_offset,
                const struct texture<__gmr_T, __gmr_dim, __gmr_rm> &__gmr_tex,
                const void *__gmr_ptr,
                const struct cudaChannelFormatDesc &__gmr_desc,
                size_t __gmr_size = UINT_MAX) {
  return ::cudaBindTexture(__gmr_offset, &__gmr_tex, __gmr_ptr, &__gmr_desc,
                           __gmr_size);
}
GMRACE_TEXREF_T
cudaBindTexture(size_t *__gmr_offset,
                const struct texture<__gmr_T, __gmr_dim, __gmr_rm> &__gmr_tex,
                const void *__gmr_ptr, size_t __gmr_size = UINT_MAX) {
  return ::cudaBindTexture(__gmr_offset, &__gmr_tex, __gmr_ptr,
                           &__gmr_tex.channelDesc, __gmr_size);
}
GMRACE_TEXREF_T
cudaBindTexture2D(size_t *__gmr_offset,
                  const struct texture<__gmr_T, __gmr_dim, __gmr_rm> &__gmr_tex,
                  const void *__gmr_ptr,
                  const struct cudaChannelFormatDesc &__gmr_desc,
                  size_t __gmr_width, size_t __gmr_height,
                  size_t __gmr_pitch) {
  return ::cudaBindTexture2D(__gmr_offset, &__gmr_tex, __gmr_ptr, &__gmr_desc,
                             __gmr_width, __gmr_height, __gmr_pitch);
}
GMRACE_TEXREF_T
cudaUnbindTexture(
    const struct texture<__gmr_T, __gmr_dim, __gmr_rm> &__gmr_tex) {
  return ::cudaUnbindTexture(&__gmr_tex);
}
#undef GMRACE_TEXREF_T

/* ---- device fetches ---- */
/* clang's texture header names template parameters N and T; kernels often
 * define those as macros (-DN=...), so they are set aside while it is read. */
#pragma push_macro("N")
#pragma push_macro("T")
#undef N
#undef T
#include <__clang_cuda_texture_intrinsics.h>
#pragma pop_macro("T")
#pragma pop_macro("N")

/* clang's __TypeInfoT (element type -> 4-vector fetched by the tex
 * instruction) knows only the 8/16/32-bit integer types and float; a texture
 * of long, unsigned long (ulong4 ...), long long or double elements fails
 * inside the header.  Such textures are not fetchable on a real GPU either
 * (64-bit texels are read as int2/uint4 and reassembled), but kernels declare
 * them, so map them onto the 32-bit fetch of the same signedness: enough to
 * type-check and produce PTX.  The header's namespace is anonymous; reopening
 * it here names the same namespace. */
namespace {
namespace __cuda_tex {
template <> struct __TypeInfoT<long> {
  using __base_t = long;
  using __fetch_t = int4;
};
template <> struct __TypeInfoT<unsigned long> {
  using __base_t = unsigned long;
  using __fetch_t = uint4;
};
template <> struct __TypeInfoT<long long> {
  using __base_t = long long;
  using __fetch_t = int4;
};
template <> struct __TypeInfoT<unsigned long long> {
  using __base_t = unsigned long long;
  using __fetch_t = uint4;
};
template <> struct __TypeInfoT<double> {
  using __base_t = double;
  using __fetch_t = float4;
};
} // namespace __cuda_tex
} // namespace

/* Result of a cudaReadModeNormalizedFloat fetch: float for a scalar texel,
 * floatN for an N-component one (as the toolkit's __nv_tex_rmnf_ret). */
template <class __gmr_T> struct __gmr_tex_rmnf { typedef float __type; };
#define GMRACE_TEX_RMNF(NAME)                                                  \
  template <> struct __gmr_tex_rmnf<NAME##1> { typedef float1 __type; };       \
  template <> struct __gmr_tex_rmnf<NAME##2> { typedef float2 __type; };       \
  template <> struct __gmr_tex_rmnf<NAME##4> { typedef float4 __type; };
GMRACE_TEX_RMNF(char)
GMRACE_TEX_RMNF(uchar)
GMRACE_TEX_RMNF(short)
GMRACE_TEX_RMNF(ushort)
GMRACE_TEX_RMNF(int)
GMRACE_TEX_RMNF(uint)
GMRACE_TEX_RMNF(float)
#undef GMRACE_TEX_RMNF

/* ---- texture references ----
 * GMRACE_TEXREF(NAME, TEXTYPE, (params), (args)) defines NAME(texref,
 * params...) for both read modes:
 *   cudaReadModeElementType     -> the element type, via "__NAME_v2";
 *   cudaReadModeNormalizedFloat -> float/floatN, via "__NAME_rmnf_v2". */
#define GMRACE_TEX_STRIP(...) __VA_ARGS__
#define GMRACE_TEXREF(NAME, TEXTYPE, PARAMS, ARGS)                             \
  template <class __gmr_T>                                                     \
  static __device__ __forceinline__ __gmr_T NAME(                              \
      texture<__gmr_T, TEXTYPE, cudaReadModeElementType> __gmr_t,              \
      GMRACE_TEX_STRIP PARAMS) {                                               \
    __gmr_T __gmr_r;                                                           \
    __nv_tex_surf_handler("__" #NAME "_v2", (__gmr_T *)0, &__gmr_r, __gmr_t,   \
                          GMRACE_TEX_STRIP ARGS);                              \
    return __gmr_r;                                                            \
  }                                                                            \
  template <class __gmr_T>                                                     \
  static __device__ __forceinline__ typename __gmr_tex_rmnf<__gmr_T>::__type   \
  NAME(texture<__gmr_T, TEXTYPE, cudaReadModeNormalizedFloat> __gmr_t,         \
       GMRACE_TEX_STRIP PARAMS) {                                              \
    typename __gmr_tex_rmnf<__gmr_T>::__type __gmr_r;                          \
    __nv_tex_surf_handler("__" #NAME "_rmnf_v2", (__gmr_T *)0, &__gmr_r,       \
                          __gmr_t, GMRACE_TEX_STRIP ARGS);                     \
    return __gmr_r;                                                            \
  }

GMRACE_TEXREF(tex1Dfetch, cudaTextureType1D, (int __gmr_x), (__gmr_x))
GMRACE_TEXREF(tex1D, cudaTextureType1D, (float __gmr_x), (__gmr_x))
GMRACE_TEXREF(tex2D, cudaTextureType2D, (float __gmr_x, float __gmr_y),
              (__gmr_x, __gmr_y))
GMRACE_TEXREF(tex3D, cudaTextureType3D,
              (float __gmr_x, float __gmr_y, float __gmr_z),
              (__gmr_x, __gmr_y, __gmr_z))
GMRACE_TEXREF(tex1DLayered, cudaTextureType1DLayered,
              (float __gmr_x, int __gmr_layer), (__gmr_x, __gmr_layer))
GMRACE_TEXREF(tex2DLayered, cudaTextureType2DLayered,
              (float __gmr_x, float __gmr_y, int __gmr_layer),
              (__gmr_x, __gmr_y, __gmr_layer))
GMRACE_TEXREF(texCubemap, cudaTextureTypeCubemap,
              (float __gmr_x, float __gmr_y, float __gmr_z),
              (__gmr_x, __gmr_y, __gmr_z))
GMRACE_TEXREF(texCubemapLayered, cudaTextureTypeCubemapLayered,
              (float __gmr_x, float __gmr_y, float __gmr_z, int __gmr_layer),
              (__gmr_x, __gmr_y, __gmr_z, __gmr_layer))
GMRACE_TEXREF(tex1DLod, cudaTextureType1D, (float __gmr_x, float __gmr_level),
              (__gmr_x, __gmr_level))
GMRACE_TEXREF(tex2DLod, cudaTextureType2D,
              (float __gmr_x, float __gmr_y, float __gmr_level),
              (__gmr_x, __gmr_y, __gmr_level))
GMRACE_TEXREF(tex3DLod, cudaTextureType3D,
              (float __gmr_x, float __gmr_y, float __gmr_z, float __gmr_level),
              (__gmr_x, __gmr_y, __gmr_z, __gmr_level))
GMRACE_TEXREF(tex1DGrad, cudaTextureType1D,
              (float __gmr_x, float __gmr_dx, float __gmr_dy),
              (__gmr_x, __gmr_dx, __gmr_dy))
GMRACE_TEXREF(tex2DGrad, cudaTextureType2D,
              (float __gmr_x, float __gmr_y, float2 __gmr_dx, float2 __gmr_dy),
              (__gmr_x, __gmr_y, &__gmr_dx, &__gmr_dy))
GMRACE_TEXREF(tex3DGrad, cudaTextureType3D,
              (float __gmr_x, float __gmr_y, float __gmr_z, float4 __gmr_dx,
               float4 __gmr_dy),
              (__gmr_x, __gmr_y, __gmr_z, &__gmr_dx, &__gmr_dy))
#undef GMRACE_TEXREF

/* tex2Dgather(texref, x, y, comp): component comp of the four texels around
 * (x, y); the result is the 4-vector of the element's base type (float4 for
 * normalized reads). */
template <class __gmr_T> struct __gmr_tex_gather {};
#define GMRACE_TEX_GATHER(S, NAME)                                             \
  template <> struct __gmr_tex_gather<S> { typedef NAME##4 __type; };          \
  template <> struct __gmr_tex_gather<NAME##1> { typedef NAME##4 __type; };    \
  template <> struct __gmr_tex_gather<NAME##2> { typedef NAME##4 __type; };    \
  template <> struct __gmr_tex_gather<NAME##3> { typedef NAME##4 __type; };    \
  template <> struct __gmr_tex_gather<NAME##4> { typedef NAME##4 __type; };
GMRACE_TEX_GATHER(signed char, char)
GMRACE_TEX_GATHER(unsigned char, uchar)
GMRACE_TEX_GATHER(short, short)
GMRACE_TEX_GATHER(unsigned short, ushort)
GMRACE_TEX_GATHER(int, int)
GMRACE_TEX_GATHER(unsigned int, uint)
GMRACE_TEX_GATHER(float, float)
#undef GMRACE_TEX_GATHER
template <> struct __gmr_tex_gather<char> { typedef char4 __type; };
template <class __gmr_T>
static __device__ __forceinline__ typename __gmr_tex_gather<__gmr_T>::__type
tex2Dgather(
    texture<__gmr_T, cudaTextureType2D, cudaReadModeElementType> __gmr_t,
    float __gmr_x, float __gmr_y, int __gmr_comp = 0) {
  typename __gmr_tex_gather<__gmr_T>::__type __gmr_r;
  __nv_tex_surf_handler("__tex2Dgather_v2", (__gmr_T *)0, &__gmr_r, __gmr_t,
                        __gmr_x, __gmr_y, __gmr_comp);
  return __gmr_r;
}
template <class __gmr_T>
static __device__ __forceinline__ float4 tex2Dgather(
    texture<__gmr_T, cudaTextureType2D, cudaReadModeNormalizedFloat> __gmr_t,
    float __gmr_x, float __gmr_y, int __gmr_comp = 0) {
  float4 __gmr_r;
  __nv_tex_surf_handler("__tex2Dgather_rmnf_v2", (__gmr_T *)0, &__gmr_r,
                        __gmr_t, __gmr_x, __gmr_y, __gmr_comp);
  return __gmr_r;
}

/* ---- texture objects ----
 * The result type is the explicit template argument, e.g.
 * tex2D<float4>(obj, x, y); the toolkit's void forms that store through a
 * pointer, tex2D(&v, obj, x, y), are provided too. */
#define GMRACE_TEXOBJ(NAME, PARAMS, ARGS)                                      \
  template <class __gmr_T>                                                     \
  static __device__ __forceinline__ __gmr_T NAME(                              \
      cudaTextureObject_t __gmr_obj, GMRACE_TEX_STRIP PARAMS) {                \
    __gmr_T __gmr_r;                                                           \
    __nv_tex_surf_handler("__" #NAME "_v2", &__gmr_r, __gmr_obj,               \
                          GMRACE_TEX_STRIP ARGS);                              \
    return __gmr_r;                                                            \
  }                                                                            \
  template <class __gmr_T>                                                     \
  static __device__ __forceinline__ void NAME(                                 \
      __gmr_T *__gmr_ret, cudaTextureObject_t __gmr_obj,                       \
      GMRACE_TEX_STRIP PARAMS) {                                               \
    __nv_tex_surf_handler("__" #NAME "_v2", __gmr_ret, __gmr_obj,              \
                          GMRACE_TEX_STRIP ARGS);                              \
  }

GMRACE_TEXOBJ(tex1Dfetch, (int __gmr_x), (__gmr_x))
GMRACE_TEXOBJ(tex1D, (float __gmr_x), (__gmr_x))
GMRACE_TEXOBJ(tex2D, (float __gmr_x, float __gmr_y), (__gmr_x, __gmr_y))
GMRACE_TEXOBJ(tex3D, (float __gmr_x, float __gmr_y, float __gmr_z),
              (__gmr_x, __gmr_y, __gmr_z))
GMRACE_TEXOBJ(tex1DLayered, (float __gmr_x, int __gmr_layer),
              (__gmr_x, __gmr_layer))
GMRACE_TEXOBJ(tex2DLayered, (float __gmr_x, float __gmr_y, int __gmr_layer),
              (__gmr_x, __gmr_y, __gmr_layer))
GMRACE_TEXOBJ(texCubemap, (float __gmr_x, float __gmr_y, float __gmr_z),
              (__gmr_x, __gmr_y, __gmr_z))
GMRACE_TEXOBJ(texCubemapLayered,
              (float __gmr_x, float __gmr_y, float __gmr_z, int __gmr_layer),
              (__gmr_x, __gmr_y, __gmr_z, __gmr_layer))
GMRACE_TEXOBJ(tex1DLod, (float __gmr_x, float __gmr_level),
              (__gmr_x, __gmr_level))
GMRACE_TEXOBJ(tex2DLod, (float __gmr_x, float __gmr_y, float __gmr_level),
              (__gmr_x, __gmr_y, __gmr_level))
GMRACE_TEXOBJ(tex3DLod,
              (float __gmr_x, float __gmr_y, float __gmr_z, float __gmr_level),
              (__gmr_x, __gmr_y, __gmr_z, __gmr_level))
GMRACE_TEXOBJ(texCubemapLod,
              (float __gmr_x, float __gmr_y, float __gmr_z, float __gmr_level),
              (__gmr_x, __gmr_y, __gmr_z, __gmr_level))
GMRACE_TEXOBJ(tex1DGrad, (float __gmr_x, float __gmr_dx, float __gmr_dy),
              (__gmr_x, __gmr_dx, __gmr_dy))
GMRACE_TEXOBJ(tex2DGrad,
              (float __gmr_x, float __gmr_y, float2 __gmr_dx, float2 __gmr_dy),
              (__gmr_x, __gmr_y, &__gmr_dx, &__gmr_dy))
GMRACE_TEXOBJ(tex3DGrad,
              (float __gmr_x, float __gmr_y, float __gmr_z, float4 __gmr_dx,
               float4 __gmr_dy),
              (__gmr_x, __gmr_y, __gmr_z, &__gmr_dx, &__gmr_dy))
GMRACE_TEXOBJ(tex2Dgather, (float __gmr_x, float __gmr_y, int __gmr_comp = 0),
              (__gmr_x, __gmr_y, __gmr_comp))
#undef GMRACE_TEXOBJ
#undef GMRACE_TEX_STRIP

/* ---- surfaces ----
 * clang has no device-side surface implementation, so surface accesses are
 * declarations only (an `.extern .func` in PTX); gmrace recognises them by
 * name.  x is a BYTE offset, as in CUDA. */
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1
};
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};
/* Legacy surface reference; a namespace-scope variable of this type is a
 * device-side .surfref. */
template <class __gmr_T, int __gmr_dim = cudaSurfaceType1D>
struct __attribute__((device_builtin_surface_type)) surface
    : public surfaceReference {
  __host__ surface(void) { channelDesc = cudaCreateChannelDesc<__gmr_T>(); }
  __host__ surface(struct cudaChannelFormatDesc __gmr_desc) {
    channelDesc = __gmr_desc;
  }
};
template <int __gmr_dim>
struct __attribute__((device_builtin_surface_type)) surface<void, __gmr_dim>
    : public surfaceReference {
  __host__ surface(void) {
    channelDesc = cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
  }
};

extern "C" __host__ cudaError_t CUDARTAPI cudaBindSurfaceToArray(
    const struct surfaceReference *, cudaArray_t,
    const struct cudaChannelFormatDesc *);
extern "C" __host__ cudaError_t CUDARTAPI cudaCreateSurfaceObject(
    cudaSurfaceObject_t *, const struct cudaResourceDesc *);
extern "C" __host__ cudaError_t CUDARTAPI
cudaDestroySurfaceObject(cudaSurfaceObject_t);
template <class __gmr_T, int __gmr_dim>
static __inline__ __host__ cudaError_t
cudaBindSurfaceToArray(const struct surface<__gmr_T, __gmr_dim> &__gmr_surf,
                       cudaArray_t __gmr_array) {
  return ::cudaBindSurfaceToArray(&__gmr_surf, __gmr_array,
                                  &__gmr_surf.channelDesc);
}

/* GMRACE_SURF(NAME, SURFTYPE, (coordinate params)): NAME##read and
 * NAME##write for surface references and surface objects. */
#define GMRACE_SURF(NAME, SURFTYPE, ...)                                       \
  template <class __gmr_T>                                                     \
  __device__ void NAME##write(                                                 \
      __gmr_T, surface<void, SURFTYPE>, __VA_ARGS__,                           \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                    \
  template <class __gmr_T>                                                     \
  __device__ void NAME##write(                                                 \
      __gmr_T, cudaSurfaceObject_t, __VA_ARGS__,                               \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                    \
  template <class __gmr_T>                                                     \
  __device__ void NAME##read(                                                  \
      __gmr_T *, surface<void, SURFTYPE>, __VA_ARGS__,                         \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                    \
  template <class __gmr_T>                                                     \
  __device__ __gmr_T NAME##read(                                               \
      surface<void, SURFTYPE>, __VA_ARGS__,                                    \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                    \
  template <class __gmr_T>                                                     \
  __device__ void NAME##read(                                                  \
      __gmr_T *, cudaSurfaceObject_t, __VA_ARGS__,                             \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);                    \
  template <class __gmr_T>                                                     \
  __device__ __gmr_T NAME##read(                                               \
      cudaSurfaceObject_t, __VA_ARGS__,                                        \
      enum cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
GMRACE_SURF(surf1D, cudaSurfaceType1D, int)
GMRACE_SURF(surf2D, cudaSurfaceType2D, int, int)
GMRACE_SURF(surf3D, cudaSurfaceType3D, int, int, int)
GMRACE_SURF(surf1DLayered, cudaSurfaceType1DLayered, int, int)
GMRACE_SURF(surf2DLayered, cudaSurfaceType2DLayered, int, int, int)
GMRACE_SURF(surfCubemap, cudaSurfaceTypeCubemap, int, int, int)
GMRACE_SURF(surfCubemapLayered, cudaSurfaceTypeCubemapLayered, int, int, int)
#undef GMRACE_SURF

#endif /* GMRACE_TEXTURES_H */
