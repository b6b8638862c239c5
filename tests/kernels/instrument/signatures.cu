// instrument: --all
// Kernel signatures: no parameters, `void`, unnamed parameters (named to be forwarded),
// `extern "C"`, a default argument, a struct by value, and host code launching them.
struct Params { int scale; int offset; };

__global__ void empty() {
    __shared__ int s[32];
    s[threadIdx.x] = 1;
}

__global__ void void_params(void) {
    __shared__ int s[32];
    s[threadIdx.x] = 2;
}

extern "C" __global__ void unnamed(int *out, int) {
    __shared__ int s[32];
    s[threadIdx.x] = 3;
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void defaults(int *out, Params p, int n = 4) {
    __shared__ int s[32];
    s[threadIdx.x] = p.scale * n + p.offset;
    out[threadIdx.x] = s[threadIdx.x];
}

int main() {
    int *out = 0;
    Params p = {2, 1};
    empty<<<1, 32>>>();
    void_params<<<1, 32>>>();
    unnamed<<<1, 32>>>(out, 0);
    defaults<<<1, 32>>>(out, p);
    return 0;
}
