//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The locked counter with the lock never taken: thread 0 of each block updates the counter unprotected.
__global__ void locked_count(int *lock, int *counter) {
    if (threadIdx.x == 0) {
        *counter = *counter + 1; // RACE
        __threadfence();
        atomicExch(lock, 0);
    }
}
