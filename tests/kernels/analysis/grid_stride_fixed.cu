//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Grid-stride loop stepping by blockDim.x * gridDim.x: each global element is updated by exactly one thread.
#define N 2048

// data holds N floats, scaled in place.
__global__ void scale_all(float *data, float f) {
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += stride)
        data[i] *= f;
}
