//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Per-block counts through cuda::atomic_ref with thread_scope_block on each block's own word, and a total with thread_scope_device.
#include <cuda/atomic>

__global__ void count(int *counter) {
    cuda::atomic_ref<int, cuda::thread_scope_block> mine(counter[1 + blockIdx.x]);
    mine.fetch_add(1);
    cuda::atomic_ref<int, cuda::thread_scope_device> total(counter[0]);
    total.fetch_add(1);
}
