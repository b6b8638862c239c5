//xfail
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Thread 0 publishes a per-block scale in a __shared__ scalar that every thread reads, with no barrier in between.
__global__ void scale_rows(const float *in, const float *row_scale, float *out) {
    __shared__ float scale;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        scale = row_scale[blockIdx.x]; // RACE
    out[g] = in[g] * scale; // RACE
}
