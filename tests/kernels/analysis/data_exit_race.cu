//xfail
//--blockDim=[128,1,1] --gridDim=[512,1,1]
// As data_exit_fixed, but a thread reads its neighbour's slot before the barrier: a race
// whenever n lets both threads past the early return.
#define BS 128

__global__ void reverse_tiles(const int *in, int *out, int n) {
    __shared__ int tile[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    if (g >= n)
        return;
    tile[t] = in[g]; // RACE
    int left = tile[(t + 1) % BS]; // RACE
    __syncthreads();
    out[g] = tile[BS - 1 - t] + left;
}
