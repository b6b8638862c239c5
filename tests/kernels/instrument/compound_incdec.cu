//--blockDim=[128,1,1] --gridDim=[1,1,1]
// instrument: --all
// Compound assignments, ++ and -- record one GMRACE_UPDATE (a read then a write of the same
// bytes); an assignment used as a value, and a post-increment used as an index.
__global__ void updates(float *out, int *hist) {
    __shared__ float s[128];
    __shared__ int c[128];
    __shared__ unsigned char bytes[128];
    int t = threadIdx.x;
    s[t] = 1.0f;
    c[t] = 0;
    bytes[t] = 0;
    __syncthreads();
    s[t] += 2.0f;
    s[t] *= s[(t + 1) % 128];
    c[t]++;
    ++c[t];
    c[t]--;
    --c[t];
    c[t] <<= 1;
    bytes[t] |= 3;
    int k = 0;
    int old = c[k++];
    float v = (s[t] = 5.0f);
    out[t] = s[t] + v + old + bytes[t];
    hist[t] = c[t];
}
