// One of two builds' kernels: this directory holds two definitions of `fill`, so which one
// main.cu's launch runs depends on the build, and neither takes it.
__global__ void fill(int *out) {
  __shared__ int slot[64];
  slot[threadIdx.x % 64] = 1; // RACE
  __syncthreads();
  out[threadIdx.x] = slot[threadIdx.x % 64];
}
