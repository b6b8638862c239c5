//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Each block writes its slice of a global array, passes a barrier and reads the next block's slice: a barrier orders the threads of one block only, so the read meets the other block's write.
__global__ void shift(float *a, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i; // RACE
    __syncthreads();
    int n = blockDim.x * gridDim.x;
    out[i] = a[(i + blockDim.x) % n]; // RACE
}
