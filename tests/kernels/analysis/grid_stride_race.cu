//xfail
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Grid-stride loop stepping by blockDim.x instead of blockDim.x * gridDim.x: blocks update the same global elements (inter-block race).
#define N 2048

// data holds N floats, scaled in place.
__global__ void scale_all(float *data, float f) {
    int stride = blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride)
        data[i] *= f; // RACE
}
