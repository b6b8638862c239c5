//pass
//--blockDim=[256,1,1] --gridDim=[4,1,1]
// Atomics: atomicAdd (int, float), an atomicCAS retry loop, atomicExch, atomicMax, atomicInc; shared and global targets.
__device__ float atomic_mul(float *addr, float f) {
    int *word = (int *)addr;
    int old = atomicAdd(word, 0); // atomic read: a plain read would race with other threads' CAS
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, __float_as_int(__int_as_float(assumed) * f));
    } while (assumed != old);
    return __int_as_float(old);
}

// g_sum, g_fsum, g_max, g_last, g_ticket and g_prod are single words touched only by atomics.
__global__ void atomics(const int *in, int *g_sum, float *g_fsum, int *g_max, int *g_last,
                        unsigned *g_ticket, float *g_prod, unsigned *slots) {
    __shared__ int s_sum;
    __shared__ unsigned s_ring;
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    if (t == 0) {
        s_sum = 0;
        s_ring = 0;
    }
    __syncthreads();
    int v = in[g];
    atomicAdd(&s_sum, v);
    unsigned slot = atomicInc(&s_ring, 7u);
    slots[g] = slot;
    atomicAdd(g_fsum, (float)v * 0.5f);
    atomicMax(g_max, v);
    atomicExch(g_last, v);
    atomic_mul(g_prod, 1.0f + (float)(slot & 1u) * 0.001f);
    __syncthreads();
    if (t == 0) {
        atomicAdd(g_sum, s_sum);
        atomicInc(g_ticket, 0xffffffffu);
    }
}
