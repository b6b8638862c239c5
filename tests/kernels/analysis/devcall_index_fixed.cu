//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Shared accesses inside __device__ helpers whose indices come from the caller, with a barrier between the put and the get.
#define BS 128

__device__ int wrap(int i) { return i % BS; }

__device__ void put(float *s, int i, float v) {
    s[i] = v;
}

__device__ float get(const float *s, int i) {
    return s[i];
}

__global__ void rotate_left(const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    put(s, t, in[g]);
    __syncthreads();
    out[g] = get(s, wrap(t + 1));
}
