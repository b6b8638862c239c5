//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Block barrier spelled with cooperative groups (this_thread_block().sync(), thread_rank()); may be unsupported by the tool.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void cg_rotate(const int *in, int *out) {
    __shared__ int s[128];
    cg::thread_block block = cg::this_thread_block();
    int t = block.thread_rank();
    int g = blockIdx.x * 128 + t;
    s[t] = in[g];
    cooperative_groups::this_thread_block().sync();
    int v = s[(t + 1) % 128];
    block.sync();
    s[t] = v * 2;
    block.sync();
    out[g] = s[127 - t];
}
