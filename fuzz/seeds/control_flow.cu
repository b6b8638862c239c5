__global__ void cf(int *g, int n) {
  extern __shared__ int dyn[];
  int i = threadIdx.x, acc = 0;
  switch (i % 4) {
  case 0: acc = 1; break;
  case 1: acc = g[i]; /* fall through */
  case 2: { int t = acc * 2; acc = t; break; }
  default: acc = -1;
  }
  do { acc += i-- > 0 && acc < n; } while (i > 0 || acc == 3);
  while (acc) { if (acc & 1) break; acc >>= 1; continue; }
  if (n < 0) goto out;
  dyn[threadIdx.x] = acc;
  __syncthreads();
  g[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
out:
  return;
}
