// instrument: --all
// Struct and vector accesses: a whole-struct copy is one site covering every field (sizeof of
// the struct), a member access is one scalar site, vector components too.
struct Cell { float v; int n; };

__global__ void structs(float *out) {
    __shared__ Cell cells[64];
    __shared__ float4 quads[64];
    int t = threadIdx.x;
    cells[t].v = 1.5f;
    cells[t].n = t;
    quads[t] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    __syncthreads();
    Cell c = cells[(t + 1) % 64];
    cells[t] = c;
    quads[t].y += quads[(t + 3) % 64].x;
    out[t] = cells[t].v + quads[t].y;
}
