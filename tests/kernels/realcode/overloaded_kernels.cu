// Two kernels with one name, told apart by their parameters (C++ overloading, as projects write
// one kernel per element type). Each is its own kernel, named with its parameter types: reading
// them under one name had the second hidden behind the first, and its race with it.
#define BLOCK 64

__global__ void scale(float *out, float f) { out[blockIdx.x * BLOCK + threadIdx.x] *= f; }

__global__ void scale(int *out, int f) {
  out[blockIdx.x] *= f; // RACE
}

int main() {
  float *a;
  int *b;
  scale<<<4, BLOCK>>>(a, 2.0f);
  scale<<<4, BLOCK>>>(b, 2);
}
