//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1] -DLEN=200
// Out-of-range threads return from the kernel before a barrier; not divergence under DESIGN.md (barriers wait for non-exited threads).
#define BS 128

// in and out hold LEN elements; in block 1 only threads 0..71 stay.
__global__ void reverse_tail(const float *in, float *out) {
    __shared__ float s[BS];
    int t = threadIdx.x;
    int g = blockIdx.x * BS + t;
    int count = min(BS, LEN - (int)(blockIdx.x * BS));
    if (g >= LEN)
        return;
    s[t] = in[g];
    __syncthreads();
    out[g] = s[count - 1 - t];
}
