//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// The locked counter, then a write to it after the lock is given back: whichever block takes the lock next reads the counter while that write may still be under way.
__global__ void locked_count(int *lock, int *counter, int *last) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        *last = *counter; // RACE
        *counter = *counter + 1;
        __threadfence();
        atomicExch(lock, 0);
        *last = blockIdx.x; // RACE
    }
}
