//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Compound assignments and pre/post ++/-- on shared elements, global elements and locals (values used too).
__global__ void compound(int *g, unsigned *bits) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * 128 + t;
    s[t] = g[i];
    s[t] += 3;
    s[t] -= 1;
    s[t] *= 2;
    s[t] /= 2;
    s[t] %= 1000;
    s[t] <<= 2;
    s[t] >>= 1;
    s[t] |= 1;
    s[t] &= 0xffff;
    s[t] ^= 0x5;
    s[t]++;
    ++s[t];
    s[t]--;
    --s[t];
    int k = s[t]++;
    int m = --s[t];
    __syncthreads();
    int local = s[(t + 1) % 128];
    local++;
    ++local;
    local--;
    --local;
    local += k - m;
    g[i]++;
    ++g[i];
    g[i] += local;
    bits[i] <<= 1;
    bits[i] |= (unsigned)(local & 1);
}
