//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Warp 1 spins on a volatile shared flag until warp 0 sets it with a volatile store: a spin-wait and the write it waits for are synchronization, not a race.
__global__ void spin_flag(int *out) {
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 0)
        flag = 1;
    if (threadIdx.x == 32) {
        while (flag == 0) {
        }
        out[0] = 1;
    }
}
