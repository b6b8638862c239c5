//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Struct passed by value as a kernel parameter (with a nested struct), copied to a local and to a device helper.
struct Range {
    int begin;
    int end;
};

struct Params {
    Range r;
    float scale;
    float bias;
    int stride;
};

__device__ bool in_range(Range r, int i) { return i >= r.begin && i < r.end; }

__global__ void affine(Params p, const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Params local = p;
    local.bias += 1.0f;
    if (in_range(p.r, i))
        out[i] = in[i * p.stride] * local.scale + local.bias;
}
