//pass
//--blockDim=[256,1,1] --gridDim=[1,1,1]
// cuRAND's MTGP32 generator shared by the threads of one block, as it is meant to be used (at most 256 threads).
#include <curand_kernel.h>

__global__ void draw(curandStateMtgp32_t *state, float *out) {
    out[threadIdx.x] = curand_uniform(state);
}
