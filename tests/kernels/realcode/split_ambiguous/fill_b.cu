// The other build's `fill`, with the same name and parameters.
__global__ void fill(int *out) {
  __shared__ int slot[64];
  slot[threadIdx.x % 64] = 2; // RACE
  __syncthreads();
  out[threadIdx.x] = slot[threadIdx.x % 64];
}
