// No #include at all: everything comes from the force-included prelude.
__device__ int total;

__global__ void k(float *out, const float *in, int n) {
  __shared__ float buf[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float2 p = make_float2(buf[threadIdx.x], sqrtf(buf[threadIdx.x]));
  int4 q = make_int4(threadIdx.x, threadIdx.y, threadIdx.z, warpSize);
  atomicAdd(&total, q.x + q.w);
  atomicMax(&total, (int)p.x);
  if (i < n)
    out[i] = p.x + p.y + min(i, n) + fmaxf(p.x, 0.0f);
  if (threadIdx.x == 0)
    printf("block %d done, gridDim.x=%d\n", blockIdx.x, gridDim.x);
}

int main() {
  float *d;
  cudaMalloc(&d, 256 * sizeof(float));
  k<<<dim3(2), dim3(128)>>>(d, d, 256);
  cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
