//xfail
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// A global counter updated through cuda::atomic_ref with thread_scope_block from four blocks: atomic only within a block, a scoped race across blocks.
#include <cuda/atomic>

__global__ void count(int *counter) {
    cuda::atomic_ref<int, cuda::thread_scope_block> c(*counter);
    c.fetch_add(1); // RACE
}
