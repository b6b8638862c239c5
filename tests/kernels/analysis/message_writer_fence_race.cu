//xfail
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Message passing with the reader's fence but none between the writer's value and its flag: the flag may be seen before the value.
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42; // RACE
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        out[0] = data[0]; // RACE
    }
}
