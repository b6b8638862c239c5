//xfail
//--blockDim=[64,1,1] --gridDim=[1,1,1]
// A race visible only through a pointer local: p = s + tid, then p[1] is the next thread's slot (no barrier before reading).
__global__ void shift_left(const float *in, float *out) {
    __shared__ float s[65];
    int tid = threadIdx.x;
    float *p = s + tid;
    p[0] = in[tid]; // RACE
    if (tid == 63)
        s[64] = 0.0f; // thread 63 writes and later reads this slot itself
    out[tid] = p[1]; // RACE
}
