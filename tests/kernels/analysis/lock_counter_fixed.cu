//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Thread 0 of each block adds to a global counter inside a spin lock: atomicCAS and a fence to take it, a fence and atomicExch to release it.
__global__ void locked_count(int *lock, int *counter) {
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0) {
        }
        __threadfence();
        *counter = *counter + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}
