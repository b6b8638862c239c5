//xfail
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Message passing with no fence on either side: the flag orders nothing, and the value races.
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42; // RACE
        atomicExch(flag, 1);
    } else {
        while (atomicAdd(flag, 0) == 0) {
        }
        out[0] = data[0]; // RACE
    }
}
