// Kernels that use main.cu's `idx_t`, reached through moves.cpp: alone they do not compile.
__global__ void countMoves(idx_t *moves) {
  __shared__ idx_t seen;
  if (threadIdx.x < 64)
    seen = moves[blockIdx.x * 128 + threadIdx.x]; // RACE
  __syncthreads();
  moves[blockIdx.x * 128 + threadIdx.x] = seen;
}
