//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Early returns from a kernel (bounds check and a data-dependent exit) and the comma operator in statements and for loops.
__global__ void comma_ops(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a, b;
    a = in[i], b = a * 2;
    for (int j = 0, k = 3; j < k; ++j, --k)
        b += j * k;
    if (b < 0)
        return;
    out[i] = (a++, a + b);
}
