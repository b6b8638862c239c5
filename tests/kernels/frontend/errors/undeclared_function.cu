//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// Front-end error: calls the undeclared function fast_rsqrt on line 7; must be rejected (exit status 2).
__global__ void normalize(float *v) {
    int t = threadIdx.x;
    float x = v[t];
    v[t] = x * fast_rsqrt(x * x + 1.0f);
}
