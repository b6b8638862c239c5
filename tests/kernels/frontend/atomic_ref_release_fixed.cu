//pass
//--blockDim=[32,1,1] --gridDim=[2,1,1]
// Message passing through libcu++'s atomic_ref: a release store publishes the data, an acquire load in a spin-wait receives it.
#include <cuda/atomic>
__global__ void message(int *data, int *flag, int *out) {
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
    } else {
        while (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(cuda::memory_order_acquire) == 0) {
        }
        out[0] = data[0];
    }
}
