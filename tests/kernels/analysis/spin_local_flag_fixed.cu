//pass
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Warp 1 re-reads a volatile shared flag into a local until warp 0 sets it: a spin-wait through a local is synchronization too.
__global__ void spin_local(int *out) {
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 0)
        flag = 1;
    if (threadIdx.x == 32) {
        int f;
        do {
            f = flag;
        } while (f == 0);
        out[0] = f;
    }
}
