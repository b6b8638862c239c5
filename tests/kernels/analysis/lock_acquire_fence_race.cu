//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The locked counter without the fence after the lock is taken: the counter's read may be served before the lock is held (a stale L1 line on real GPUs), so the critical sections race.
__global__ void locked_count(int *lock, int *counter) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        *counter = *counter + 1; // RACE
        __threadfence();
        atomicExch(lock, 0);
    }
}
