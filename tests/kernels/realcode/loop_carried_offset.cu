// A time-stepping kernel that walks z-planes with an offset advanced only on some iterations:
// the analysis does not follow `o` through the loop, so the witness it replays (`pitch = 0`,
// where rows overlap) shows a race that only some parameter values give. It is conditional:
// with the program's pitch no two threads meet. (Never launched here: the launch is open.)
__global__ void rk_step(float *q, const float *qo, unsigned pitch, unsigned ny,
                        unsigned nz, unsigned loop_z, float dt) {
  unsigned i = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned j = blockDim.y * blockIdx.y + threadIdx.y;
  unsigned k = blockIdx.z * loop_z;
  unsigned plane = pitch * ny;
  unsigned o = i + pitch * j + plane * k;
  for (unsigned z = 0; z < loop_z; z++) {
    if (k < nz) {
      q[o] = qo[o] + dt * q[o]; // RACE
      o = o + plane;
    }
    k += 1;
  }
}
