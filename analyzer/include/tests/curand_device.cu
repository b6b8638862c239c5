// cuRAND device API.  No #include: kernels written for GPUVerify's CUDA
// environment use curandState without one (the prelude includes
// <curand_kernel.h>); including it explicitly must work too.
__global__ void setup(curandState *state, unsigned long long seed,
                      unsigned long long offset) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  curand_init(seed, tid, offset, &state[tid]);
}

#include <curand_kernel.h>
#include <curand.h>

__global__ void paths(float *out, curandState_t *states,
                      curandStatePhilox4_32_10_t *philox,
                      curandStateMRG32k3a_t *mrg, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  curandStateXORWOW_t local = states[tid];
  float u = curand_uniform(&local);
  float z = curand_normal(&local);
  float2 z2 = curand_normal2(&local);
  double ud = curand_uniform_double(&local) + curand_normal_double(&local);
  float ln = curand_log_normal(&local, 0.0f, 1.0f);
  unsigned int k = curand(&local) + curand_poisson(&local, 4.0);
  skipahead(16ull, &local);
  states[tid] = local;
  curand_init(1234ull, tid, 0ull, &philox[tid]);
  float4 u4 = curand_uniform4(&philox[tid]);
  float4 n4 = curand_normal4(&philox[tid]);
  uint4 r4 = curand4(&philox[tid]);
  curand_init(1234ull, tid, 0ull, &mrg[tid]);
  float m = curand_uniform(&mrg[tid]);
  if (tid < n)
    out[tid] = u + z + z2.x + ud + ln + k + u4.x + n4.y + r4.z + m;
}

int main() {
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  float *d = 0;
  curandGenerateUniform(gen, d, 1024);
  curandDestroyGenerator(gen);
  static_assert(sizeof(curandState) == 48, "XORWOW state layout");
  return 0;
}
