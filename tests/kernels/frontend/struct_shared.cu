//pass
//--blockDim=[64,1,1] --gridDim=[4,1,1]
// Structs in shared memory: a struct holding arrays, an array of structs, and a scalar struct written by one thread.
struct Stats {
    float sum[64];
    int positive[64];
};

struct KeyVal {
    int key;
    float val;
};

struct Summary {
    float total;
    int count;
};

__global__ void block_stats(const float *in, const int *keys, float *out, float *totals, int *counts) {
    __shared__ Stats st;
    __shared__ KeyVal kv[64];
    __shared__ Summary sum;
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    float v = in[g];
    st.sum[t] = v;
    st.positive[t] = v > 0.0f ? 1 : 0;
    kv[t].key = keys[g];
    kv[t].val = v * 2.0f;
    __syncthreads();
    if (t == 0) {
        float s = 0.0f;
        int c = 0;
        for (int k = 0; k < 64; ++k) {
            s += st.sum[k];
            c += st.positive[k];
        }
        sum.total = s;
        sum.count = c;
    }
    __syncthreads();
    out[g] = kv[63 - t].val + (float)kv[63 - t].key - sum.total;
    if (t == 0) {
        totals[blockIdx.x] = sum.total;
        counts[blockIdx.x] = sum.count;
    }
}
