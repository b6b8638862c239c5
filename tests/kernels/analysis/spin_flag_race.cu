//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Warp 1 reads a plain shared flag once, in the barrier interval in which warp 0 sets it: no spin-wait, no volatile, a race.
__global__ void spin_flag(int *out) {
    __shared__ int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 0)
        flag = 1; // RACE
    if (threadIdx.x == 32)
        out[0] = flag; // RACE
}
