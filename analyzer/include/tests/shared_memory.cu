// Shared/constant memory, __launch_bounds__, __align__, __forceinline__,
// __noinline__, templates, __CUDA_ARCH__.
#include <cuda_runtime.h>

#define TILE 16

__constant__ int lut[4] = {1, 2, 3, 4};

struct __align__(16) Particle {
  float x, y, z, m;
};

static __forceinline__ __device__ float sq(float v) { return v * v; }
__noinline__ __device__ float cube(float v) { return v * v * v; }

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK, 2)
transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  extern __shared__ float dyn[];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  dyn[threadIdx.x] = sq(tile[0][threadIdx.x]) + lut[threadIdx.x % 4];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y] + cube(dyn[0]);
}

__global__ void __launch_bounds__(256) particles(Particle *p) {
  __shared__ Particle cache[256];
  cache[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  p[threadIdx.x].m = cache[(threadIdx.x + 1) % 256].m;
#else
#error "__CUDA_ARCH__ must be set in device compilation"
#endif
}

int main() {
  float *a, *b;
  cudaMalloc(&a, 1024 * 1024 * sizeof(float));
  cudaMalloc(&b, 1024 * 1024 * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid(1024 / TILE, 1024 / TILE);
  transpose<TILE * TILE><<<grid, block, TILE * sizeof(float)>>>(b, a, 1024, 1024);
  Particle *p;
  cudaMalloc(&p, 256 * sizeof(Particle));
  particles<<<1, 256>>>(p);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
