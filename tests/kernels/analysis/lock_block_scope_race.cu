//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The locked counter with a lock of block scope (atomicCAS_block, atomicExch_block) taken by threads of four blocks: the lock word races across blocks.
__global__ void locked_count(int *lock, int *counter) {
    if (threadIdx.x == 0) {
        while (atomicCAS_block(lock, 0, 1) != 0) { // RACE
        }
        *counter = *counter + 1; // RACE
        __threadfence();
        atomicExch_block(lock, 0); // RACE
    }
}
