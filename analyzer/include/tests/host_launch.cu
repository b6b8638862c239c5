// Host main: allocation, copies, symbols, streams, events and launches.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

__constant__ float coeffs[16];
__device__ int counter;
__managed__ int managed_flag;

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * coeffs[i % 16] + counter + managed_flag;
}

template <typename T> __global__ void fill(T *p, T v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i] = v;
}

int main() {
  const int n = 1 << 20;
  size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc((void **)&d_in, bytes)); // C API
  CHECK(cudaMalloc(&d_out, bytes));         // C++ template overload
  float *pinned;
  CHECK(cudaMallocHost(&pinned, bytes));
  int *um;
  CHECK(cudaMallocManaged(&um, 4 * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice));

  float hc[16] = {0};
  CHECK(cudaMemcpyToSymbol(coeffs, hc, sizeof(hc)));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(int), 0,
                           cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromSymbol(&zero, counter, sizeof(int)));

  cudaDeviceProp prop;
  int dev = 0, count = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(dev));
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaGetDeviceProperties(&prop, dev));
  printf("%s sm_%d%d SMs=%d warp=%d maxThreads=%d shm=%zu mem=%zu grid=%d\n",
         prop.name, prop.major, prop.minor, prop.multiProcessorCount,
         prop.warpSize, prop.maxThreadsPerBlock, prop.sharedMemPerBlock,
         prop.totalGlobalMem, prop.maxGridSize[0] + prop.maxThreadsDim[0]);

  CHECK(cudaFuncSetCacheConfig(scale, cudaFuncCachePreferShared));

  // Launches: integers, dim3, dynamic shared memory, stream.
  scale<<<(n + 255) / 256, 256>>>(d_out, d_in, n);
  dim3 block(16, 16);
  dim3 grid((n + 255) / 256);
  scale<<<grid, block>>>(d_out, d_in, n);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  scale<<<grid, block, 0, stream>>>(d_out, d_in, n);
  scale<<<grid, 256, 1024, stream>>>(d_out, d_in, n);
  fill<float><<<64, 128>>>(d_out, 1.0f, n);
  fill<<<dim3(4, 1, 1), dim3(32)>>>(um, 7, 4);
  CHECK(cudaGetLastError());
  CHECK(cudaPeekAtLastError());

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  scale<<<grid, block, 0, stream>>>(d_out, d_in, n);
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));

  CHECK(cudaMemcpyAsync(h, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaMemset(d_out, 0, bytes));
  CHECK(cudaMemcpy(d_in, d_out, bytes, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(h, pinned, bytes, cudaMemcpyHostToHost));
  CHECK(cudaMemcpy(h, d_out, bytes, cudaMemcpyDefault));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaThreadSynchronize());

  int minGrid, blockSize;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, scale));

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(um));
  CHECK(cudaFreeHost(pinned));
  free(h);
  CHECK(cudaDeviceReset());
  printf("%f %d %d\n", ms, minGrid, blockSize);
  return 0;
}
