// Kernels launched from class methods: a class template's methods (the instantiation `main`
// uses, `Table<int>`), a plain class's method defined in its body and one defined out of line,
// and a static method called through the class. Each launch gives its kernel's configuration.
#include <cuda_runtime.h>

template <typename T> __global__ void fillTable(T *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    slots[i] = (T)i;
}

template <typename T> __global__ void countTable(const T *slots, int *count) {
  *count += (int)slots[threadIdx.x]; // RACE
}

template <typename T> class Table {
public:
  explicit Table(int n) : n_(n) { cudaMalloc(&slots_, n * sizeof(T)); }
  void fill() { fillTable<T><<<(n_ + 127) / 128, 128>>>(slots_, n_); }
  void count(int *out);

private:
  T *slots_;
  int n_;
};

template <typename T> void Table<T>::count(int *out) { countTable<T><<<1, 32>>>(slots_, out); }

__global__ void scale(float *a) { a[blockIdx.x * 64 + threadIdx.x] *= 2.0f; }

struct Scaler {
  float *data;
  void inBody() { scale<<<4, 64>>>(data); }
  void outOfLine();
  static void once(float *d) { scale<<<4, 64>>>(d); }
};

void Scaler::outOfLine() { scale<<<4, 64>>>(data); }

int main() {
  Table<int> t(1000);
  int *count;
  cudaMalloc(&count, sizeof(int));
  t.fill();
  t.count(count);
  Scaler s;
  cudaMalloc(&s.data, 256 * sizeof(float));
  s.inBody();
  s.outOfLine();
  Scaler::once(s.data);
  return 0;
}
