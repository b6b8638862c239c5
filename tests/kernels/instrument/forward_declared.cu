// instrument: --all
// Kernels declared before their definitions: the declarations get the runtime parameter too,
// the first with its null default (given once, so not again on the definition); an explicit
// instantiation between a template's declaration and its definition names the new type.
template <int BS> __global__ void shift(float *data);
template __global__ void shift<64>(float *data);

__global__ void clear(void);
__global__ void clear(void);

__shared__ float board[32];

template <int BS>
__global__ void shift(float *data) {
    __shared__ float tile[BS];
    int t = threadIdx.x;
    tile[t] = data[blockIdx.x * BS + t];
    __syncthreads();
    data[blockIdx.x * BS + t] = tile[(t + 1) % BS];
}

__global__ void clear(void) {
    board[threadIdx.x % 32] = 0.0f;
}
