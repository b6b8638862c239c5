//xfail
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Each block writes buf, barriers, then reads the next block's part of buf: __syncthreads() does not order other blocks (inter-block race).
#define N 1024

__global__ void add_next_block(const float *in, float *buf, float *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    buf[g] = 2.0f * in[g]; // RACE
    __syncthreads();
    out[g] = buf[g] + buf[(g + blockDim.x) % N]; // RACE
}
