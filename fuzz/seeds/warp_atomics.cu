__device__ unsigned counter;
__constant__ float weights[8];

__global__ void warp_sum(const int *in, int *out, float *f) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, v);
    atomicInc(&counter, 100u);
    atomicCAS(out + 1, 0, v);
  }
  unsigned m = __ballot_sync(0xffffffffu, v > 0);
  f[threadIdx.x] = weights[threadIdx.x % 8] * __popc(m);
  atomicAdd(&f[0], 1.5f);
  __threadfence();
}
