//--blockDim=[256,1,1] --gridDim=[2,1,1]
// Without --all only accesses in an `unknown` pair are recorded: the data-dependent write and
// the reads it may race with; the staging copy, safe with this launch, is not. The global gather is unknown
// and listed as unchecked (global memory is not checked dynamically yet).
__global__ void gather(const int *idx, float *data, float *out) {
    __shared__ float stage[256];
    __shared__ float perm[256];
    int t = threadIdx.x;
    stage[t] = data[t];
    __syncthreads();
    perm[idx[t] & 255] = stage[t];
    out[blockIdx.x * 256 + t] = perm[t];
    data[idx[t] & 255] = 0.0f;
}
