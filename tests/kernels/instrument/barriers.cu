// instrument: --all
// Block barriers in every spelling become the runtime's: __syncthreads and its _count/_and/_or
// variants by the prelude's macros, cooperative groups' block sync by rewriting the call.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void barriers(int *out) {
    __shared__ int s[256];
    cg::thread_block block = cg::this_thread_block();
    int t = threadIdx.x;
    s[t] = t;
    block.sync();
    int a = s[255 - t];
    cg::this_thread_block().sync();
    s[t] = a;
    int n = __syncthreads_count(s[t] > 10);
    int all = __syncthreads_and(s[t] >= 0);
    int any = __syncthreads_or(s[t] == 3);
    out[t] = n + all + any + s[(t + 1) % 256];
}
