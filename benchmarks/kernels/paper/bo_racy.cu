// bo_racy: binomial option pricing (after GMRace's evaluation). Block b prices European call b on
// a recombining tree of STEPS steps; thread t holds leaf t, then the tree is folded back to
// its root one step at a time, each step reading two neighbours and writing one node.
// RACY: the barrier between reading the neighbours and writing the node is removed, so
// thread t overwrites call[t] while thread t - 1 may still be reading it.
#define STEPS 63

__global__ void binomial(const float *S, const float *X, const float *T, float r, float v,
                         float *price) {
    __shared__ float call[STEPS + 1];
    unsigned t = threadIdx.x;
    unsigned b = blockIdx.x;
    float dt = T[b] / STEPS;
    float vdt = v * sqrtf(dt);
    float u = expf(vdt);
    float d = expf(-vdt);
    float disc = expf(-r * dt);
    float pu = (expf(r * dt) - d) / (u - d) * disc;
    float pd = disc - pu;
    float leaf = S[b] * expf(vdt * (2.0f * t - STEPS));
    call[t] = fmaxf(leaf - X[b], 0.0f);
    __syncthreads();
    for (unsigned i = STEPS; i > 0; i--) {
        float next = 0.0f;
        if (t < i)
            next = pu * call[t + 1] + pd * call[t];
        if (t < i)
            call[t] = next;
        __syncthreads();
    }
    if (t == 0)
        price[b] = call[0];
}
