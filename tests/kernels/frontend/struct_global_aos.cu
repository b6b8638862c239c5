//pass
//--blockDim=[128,1,1] --gridDim=[4,1,1]
// Array of structs in global memory: field reads and writes through '.', '->' and a struct pointer local.
struct Particle {
    float x, y, z;
    float vx, vy, vz;
    int alive;
};

__global__ void integrate(Particle *ps, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Particle *p = &ps[i];
    if (!p->alive)
        return;
    p->x += p->vx * dt;
    ps[i].y += ps[i].vy * dt;
    (*p).z += (*p).vz * dt;
    if (p->z < 0.0f) {
        p->z = 0.0f;
        p->vz = -p->vz;
    }
}
