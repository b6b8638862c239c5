//xfail
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Message passing through libcu++'s atomic_ref with relaxed orders: a relaxed store and load order nothing, so the data races (the same with release and acquire is atomic_ref_release_fixed.cu).
#include <cuda/atomic>
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42; // RACE
        cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_relaxed);
    } else {
        while (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(cuda::memory_order_relaxed) == 0) {
        }
        out[0] = data[0]; // RACE
    }
}
