//xfail
//--blockDim=[512,1,1] --gridDim=[1,1,1]
// The generator of curand_mtgp32_fixed.cu drawn by 512 threads: some overwrite state words others still read.
#include <curand_kernel.h>

__global__ void draw(curandStateMtgp32_t *state, float *out) {
    out[threadIdx.x] = curand_uniform(state); // RACE
}
