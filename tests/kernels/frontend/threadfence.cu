//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// __threadfence() between a per-thread result store and a per-block atomic completion counter.
__global__ void publish(const float *in, float *out, unsigned *blocks_done) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[g] = in[g] * 3.0f;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(blocks_done, 1u);
}
