//pass
//--blockDim=[8,4,2] --gridDim=[2,3,1]
// 3-D blocks: threadIdx.y/.z, blockDim.y/.z, gridDim.x/.y, a flattened thread id and a 3-D global index.
__global__ void fill3d(int *out, int *flipped) {
    __shared__ int s[64];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = threadIdx.z;
    int W = gridDim.x * blockDim.x;
    int H = gridDim.y * blockDim.y;
    int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    int nthreads = blockDim.x * blockDim.y * blockDim.z;
    int g = (z * H + y) * W + x;
    s[tid] = x + 100 * y + 10000 * z;
    __syncthreads();
    out[g] = s[tid];
    flipped[g] = s[nthreads - 1 - tid];
}
