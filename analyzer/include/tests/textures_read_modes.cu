// Texture fetches beyond tests/textures.cu: normalized-float reads (float /
// floatN results), layered, cubemap, LOD and gradient fetches, gather,
// texture objects with explicit result types, textures of 64-bit elements
// (ulong4, unsigned long, long long, double), and surfaces.
#include <cuda_runtime.h>
#include <type_traits>

typedef unsigned char uchar;

texture<uchar, 1, cudaReadModeNormalizedFloat> volTex1;
texture<uchar, 2, cudaReadModeNormalizedFloat> img;
texture<uchar, 3, cudaReadModeNormalizedFloat> vol;
texture<uchar4, 2, cudaReadModeNormalizedFloat> rgba;
texture<short2, 2, cudaReadModeNormalizedFloat> s2;
texture<uchar4, 2, cudaReadModeElementType> rgbaRaw;
texture<uchar, 2, cudaReadModeElementType> gatherTex;
texture<float, cudaTextureType2DLayered> layered;
texture<float4, cudaTextureType1DLayered> layered1;
texture<float, cudaTextureTypeCubemap> cube;
texture<ulong4, 2, cudaReadModeElementType> nodes;
texture<unsigned long, 1> ul;
texture<long long, 1> ll;
texture<double, 1> dbl;
surface<void, 2> outSurf;
surface<void, cudaSurfaceType2DLayered> layeredSurf;

static_assert(std::is_same<decltype(tex1Dfetch(volTex1, 0)), float>::value, "");
static_assert(std::is_same<decltype(tex2D(rgba, 0.f, 0.f)), float4>::value, "");
static_assert(std::is_same<decltype(tex2D(s2, 0.f, 0.f)), float2>::value, "");
static_assert(std::is_same<decltype(tex2D(rgbaRaw, 0.f, 0.f)), uchar4>::value, "");
static_assert(std::is_same<decltype(tex2Dgather(gatherTex, 0.f, 0.f, 1)), uchar4>::value, "");

// Generic code over the element type, as in bicubic filtering samples.
template <class T, class R>
__device__ R bilinear(const texture<T, 2, cudaReadModeNormalizedFloat> t,
                      float x, float y) {
  return tex2D(t, x, y) + tex2D(t, x + 1.0f, y);
}

__global__ void fetch(float *out, float4 *out4, ulong4 *n4, cudaTextureObject_t obj,
                      cudaSurfaceObject_t surfObj, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  float a = tex1Dfetch(volTex1, x) + tex1D(volTex1, x * 0.5f) + tex2D(img, x, y) +
            tex3D(vol, x, y, 0.5f) + bilinear<uchar, float>(img, x, y);
  float4 c = tex2D(rgba, x + 0.5f, y + 0.5f);
  uchar4 raw = tex2D(rgbaRaw, x, y);
  uchar4 g = tex2Dgather(gatherTex, x, y, 2);
  float l = tex2DLayered(layered, x, y, 3) + texCubemap(cube, 1.0f, 0.0f, 0.0f) +
            tex1DLayered(layered1, x, 1).x + tex2DLod(img, x, y, 0.0f) +
            tex2DGrad(img, x, y, make_float2(1, 0), make_float2(0, 1));
  float4 m = tex2DLod<float4>(obj, x, y, 1.0f) + tex3D<float4>(obj, x, y, 0.f) +
             tex2DLayered<float4>(obj, x, y, 1) + texCubemap<float4>(obj, 1.f, 0.f, 0.f);
  float f;
  tex1Dfetch(&f, obj, x);
  n4[x] = tex2D(nodes, x, y);
  unsigned long u = tex1Dfetch(ul, x);
  long long q = tex1Dfetch(ll, x);
  double d = tex1Dfetch(dbl, x);
  out[y * w + x] = a + l + f + c.x + raw.y + g.z + m.w + u + q + d;
  out4[x] = make_float4(a, l, f, c.w);
  surf2Dwrite(make_uchar4(1, 2, 3, 4), outSurf, x * sizeof(uchar4), y);
  surf2DLayeredwrite(c, layeredSurf, x * sizeof(float4), y, 1);
  surf2Dwrite(a, surfObj, x * sizeof(float), y, cudaBoundaryModeClamp);
  float back = surf2Dread<float>(surfObj, x * sizeof(float), y);
  uchar4 px;
  surf2Dread(&px, outSurf, x * sizeof(uchar4), y);
  out[x] += back + px.x;
}

int main() {
  cudaArray_t arr = 0;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaMallocArray(&arr, &desc, 64, 64);
  cudaBindSurfaceToArray(outSurf, arr);
  rgba.normalized = true;
  rgba.filterMode = cudaFilterModeLinear;
  return 0;
}
