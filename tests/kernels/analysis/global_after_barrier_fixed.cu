//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Each block writes its slice of a global array, passes a barrier and reads a neighbour's slot in its own slice: the barrier orders the write before the read.
__global__ void shift(float *a, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i;
    __syncthreads();
    out[i] = a[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
}
