//pass
//--blockDim=[32,1,1] --gridDim=[4,1,1]
// A lock handed on: block 0 fills the table and gives back a lock it never took (the host starts it taken), the other blocks then take it in turn to read and update the table.
__global__ void handed_on(int *lock, int *table) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        table[0] = 7;
        __threadfence();
        atomicExch(lock, 0);
    } else {
        while (atomicExch(lock, 1) != 0) {
        }
        __threadfence();
        table[0] = table[0] + blockIdx.x;
        __threadfence();
        atomicExch(lock, 0);
    }
}
