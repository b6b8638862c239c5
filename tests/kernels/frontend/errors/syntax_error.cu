//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Front-end error: missing semicolon after the store on line 8; must be rejected (exit status 2).
__global__ void broken(float *out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = (float)t;
    out[t] = s[t] * 2.0f
}
