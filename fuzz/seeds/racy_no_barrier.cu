//fail
//--blockDim=64 --gridDim=1 -DN=64
__global__ void shift(int *g) {
  __shared__ int s[N];
  s[threadIdx.x] = g[threadIdx.x];
  g[threadIdx.x] = s[(threadIdx.x + 1) % N];
}
