struct Acc {
  int *base;
  int off;
  __device__ Acc(int *b, int o) : base(b), off(o) {}
  __device__ int &at(int i) { return base[off + i]; }
};
__device__ void bump(int &r, int v) { r += v; }
__device__ int get(const int *p, int i) { return p[i]; }
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

__global__ void k(int *g, int n) {
  __shared__ int s[128];
  Acc a(s, 1);
  a.at(threadIdx.x % 64) = get(g, threadIdx.x);
  bump(s[threadIdx.x & 127], fact(3));
  int *p = (n > 0) ? g : s;
  p[threadIdx.x] ^= n << 2;
  __syncthreads();
  g[blockIdx.x] = s[0];
}
