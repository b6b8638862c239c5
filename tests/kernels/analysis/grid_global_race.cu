//xfail
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Every block writes out[threadIdx.x]: the same global words are written by all four blocks (inter-block race).
#define N 1024

// in and out hold N floats (one per thread of the grid).
__global__ void square(const float *in, float *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < N) {
        float x = in[g];
        out[threadIdx.x] = x * x; // RACE
    }
}
