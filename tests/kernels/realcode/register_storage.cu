// Old code declares locals `register`; C++17 dropped the keyword and nvcc only warns, so
// gmrace warns too and reads the kernel.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  register int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  register int n = 1 << 20;
  float *x, *y;
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  return 0;
}
