//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Two kernels in one file sharing a __device__ helper and a __device__ global; each is analysed on its own.
__device__ int d_scale = 3;

__device__ int tid_global() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void produce(int *buf) {
    int i = tid_global();
    buf[i] = i * d_scale;
}

__global__ void consume(const int *buf, int *out) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int i = tid_global();
    s[t] = buf[i];
    __syncthreads();
    out[i] = s[t] + s[(t + 1) & 255];
}
