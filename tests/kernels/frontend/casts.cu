//pass
//--blockDim=[128,1,1] --gridDim=[2,1,1]
// Casts: int<->float, signed<->unsigned, narrowing, static_cast, and (char *) / reinterpret_cast pointer casts.
__global__ void casts(const float *f, const int *s, unsigned *u, float *out, unsigned char *bytes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int fi = (int)f[i];
    float back = (float)fi + static_cast<float>(s[i]);
    unsigned us = (unsigned)s[i];
    int neg = (int)(us >> 1) - (int)us;
    u[i] = us + (unsigned)neg;
    out[i] = back * (float)(short)neg;
    const char *raw = (const char *)(f + i);
    for (int k = 0; k < 4; ++k)
        bytes[4 * i + k] = (unsigned char)raw[k];
    const unsigned char *ub = reinterpret_cast<const unsigned char *>(s);
    bytes[4 * (gridDim.x * blockDim.x) + i] = ub[4 * i] ^ (unsigned char)(i & 0xff);
}
