//pass
//--blockDim=[64,1,1] --gridDim=[2,1,1]
// printf with format arguments and assert() inside a kernel, both under thread-dependent conditions.
#include <cassert>
#include <cstdio>
__global__ void checked_copy(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(blockDim.x == 64);
    assert(i < gridDim.x * blockDim.x);
    if (i == 0)
        printf("checked_copy: n=%d grid=%u block=%u\n", n, gridDim.x, blockDim.x);
    if (i < n) {
        int v = in[i];
        assert(threadIdx.x < 64 && "one thread per element of a 64-wide block");
        if (v > 1000)
            printf("thread %d (block %d) saw large value %d\n", threadIdx.x, blockIdx.x, v);
        out[i] = v;
    }
}
