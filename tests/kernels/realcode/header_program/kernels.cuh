// A library header of kernel templates: `sum.cu` instantiates `fill` only, `sizes.cu` none.
#pragma once
template <typename T>
__global__ void fill(T *d, T v) { d[blockIdx.x * blockDim.x + threadIdx.x] = v; }

template <typename T>
__global__ void scale(T *d, T f) { d[blockIdx.x * blockDim.x + threadIdx.x] *= f; }

template <typename T>
__global__ void clear_first(T *d) { d[0] = T(); }
