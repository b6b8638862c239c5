// Written for blocks of 64: in a wider block, two threads share a slot.
__global__ void fill(int *out) {
  __shared__ int slot[64];
  slot[threadIdx.x % 64] = 1; // RACE
  __syncthreads();
  out[threadIdx.x] = slot[threadIdx.x % 64];
}
