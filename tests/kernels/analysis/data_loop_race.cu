//xfail
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// As data_loop_fixed, but the slot a thread writes is counted by a loop over data: two
// threads can land on the same slot.
#define BS 256

__global__ void pair_row_sums(const int *rowptr, const float *val, float *out) {
    __shared__ float part[BS];
    int t = threadIdx.x;
    int row = blockIdx.x * BS + t;
    float sum = 0.0f;
    int slot = 0;
    for (int j = rowptr[row]; j < rowptr[row + 1]; ++j) {
        sum += val[j];
        slot += 1;
    }
    part[slot % BS] = sum; // RACE
    __syncthreads();
    if (t % 2 == 0)
        out[row / 2] = part[t] + part[t + 1];
}
