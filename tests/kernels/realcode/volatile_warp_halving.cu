// The warp-level tail of a block sum, written as a loop that halves its stride from a
// constant: `volatile` orders nothing between lanes, so under independent thread scheduling a
// lane reads a neighbour's slot while the neighbour writes it (no `__syncwarp`). The analysis
// does not follow `stride` through the loop, but it depends on no parameter: the race is
// definite. (Launched in another file: the launch is open.)
#define WARP_SIZE 32
#define BLOCK 256

__global__ void block_sum(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (int stride = BLOCK / 2; stride >= WARP_SIZE; stride /= 2) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < WARP_SIZE) {
    volatile float *v = s;
    for (int stride = WARP_SIZE / 2; stride > 0; stride /= 2)
      v[tid] += v[tid + stride]; // RACE
    if (tid == 0)
      out[blockIdx.x] = v[0];
  }
}
