//xfail
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Even threads atomicAdd a shared balance while odd threads subtract with a plain read-modify-write.
__global__ void balance(const int *in, int *result) {
    __shared__ int bal;
    int t = threadIdx.x;
    if (t == 0)
        bal = 0;
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + t];
    if (t & 1)
        bal -= v; // RACE
    else
        atomicAdd(&bal, v); // RACE
    __syncthreads();
    if (t == 0)
        result[blockIdx.x] = bal;
}
