//xfail
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Message passing with the writer's fence but none after the reader's flag read: a race on every GPU, which the static analysis leaves to the run (it asks no fence of the reading side).
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42; // RACE
        __threadfence();
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[0] = data[0]; // RACE
    }
}
