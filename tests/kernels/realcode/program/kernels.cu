// Kernels kept apart from main.cu, which includes this file after the types and the tile size
// it uses: alone it does not compile.
__global__ void swapPairs(Pair *p) {
  __shared__ Pair s[TILE];
  s[threadIdx.x] = p[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  p[blockIdx.x * TILE + threadIdx.x] = s[TILE - 1 - threadIdx.x];
}

__global__ void foldPairs(Pair *p) {
  __shared__ float s[TILE];
  s[threadIdx.x % 2] = p[blockIdx.x * TILE + threadIdx.x].a; // RACE
  __syncthreads();
  p[blockIdx.x * TILE + threadIdx.x].b = s[0];
}
