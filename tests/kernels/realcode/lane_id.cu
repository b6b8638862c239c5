// PTX's `%laneid` through inline assembly, in a kernel that indexes its data by `threadIdx.x`
// alone and whose launch is in another file (an NVRTC sample's shape). The lane number is
// computed from every thread dimension, but it only says where a thread is in its warp: the
// block's y and z are still never read, so they are 1 and the store is no race (under a
// 1x16x64 block, threads (0,0,0) and (0,1,0) would share `i`). `tiles` reads `threadIdx.y`
// itself and keeps its block open in y: its rows overlap when `width` is below the block's
// width, a conditional race.
__global__ void sequence(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned int lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[i] = lane;
  }
}

__global__ void tiles(int *out, int width) {
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.y * width + blockIdx.x * blockDim.x + threadIdx.x] = lane; // RACE
}
