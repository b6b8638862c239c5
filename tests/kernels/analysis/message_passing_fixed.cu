//pass
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Block 0 publishes a value (write, fence, flag set atomically); block 1 spins on the flag, fences, and reads the value.
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        out[0] = data[0];
    }
}
