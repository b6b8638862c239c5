//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Type-template kernel explicitly instantiated for float and int, calling a templated __device__ helper.
template <typename T>
__device__ T axpy_one(T a, T x, T y) {
    return a * x + y;
}

template <typename T>
__global__ void axpy(T a, const T *x, T *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = axpy_one<T>(a, x[i], y[i]);
}

template __global__ void axpy<float>(float, const float *, float *);
template __global__ void axpy<int>(int, const int *, int *);
