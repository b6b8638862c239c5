//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// CSR row sums: each thread's loop bound comes from memory, but the loop only reads global
// memory and its own accumulator; the pairwise sum in shared memory is after a barrier.
#define BS 256

__global__ void pair_row_sums(const int *rowptr, const float *val, float *out) {
    __shared__ float part[BS];
    int t = threadIdx.x;
    int row = blockIdx.x * BS + t;
    float sum = 0.0f;
    for (int j = rowptr[row]; j < rowptr[row + 1]; ++j)
        sum += val[j];
    part[t] = sum;
    __syncthreads();
    if (t % 2 == 0)
        out[row / 2] = part[t] + part[t + 1];
}
