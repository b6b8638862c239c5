// instrument: --all
// 44 KiB of static shared memory leave no room for the 8 KiB warpTable in shared memory, so
// the automatic choice is the global warpTable (GMRACE_WARP_TABLE_GLOBAL). Half-word accesses
// make the granule 2 bytes; dynamic shared memory is instrumented like static.
__global__ void big(short *out) {
    __shared__ short tile[22528];
    extern __shared__ short dyn[];
    int t = threadIdx.x;
    tile[t] = (short)t;
    dyn[t] = tile[t];
    __syncthreads();
    out[t] = tile[(t + 1) % 256] + dyn[t];
}
