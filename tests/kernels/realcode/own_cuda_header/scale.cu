#include "cuda.h"

__global__ void scale_kernel(float *x, int n, float s) {
  int i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

void scale_gpu(float *x, int n, float s) {
  scale_kernel<<<cuda_gridsize(n), BLOCK>>>(x, n, s);
  check_error(cudaPeekAtLastError());
}

// `layer` comes from darknet.h, which is not here: host code with errors, so the file is
// parsed again without the precompiled prelude.
void forward_scale_layer(layer l) { scale_gpu(l.output, l.outputs, l.scale); }
