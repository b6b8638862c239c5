// A kernel compiled for thread block clusters (sm_90): `__cluster_dims__` is read and
// ignored, as clang 19 ignores the toolkit's attribute. Each block reduces its own tile in
// shared memory; nothing crosses blocks.
#define TILE 256

__global__ void __cluster_dims__(2, 1, 1) tile_sum(const float *in, float *out) {
  __shared__ float s[TILE];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * TILE + t];
  __syncthreads();
  for (int stride = TILE / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * TILE * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  tile_sum<<<64, TILE>>>(in, out);
  return 0;
}
