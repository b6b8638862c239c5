// A file of the directory that does not compile: whether it defines another `fill` is not
// known, so main.cu's launch is not given to kernels.cu's `fill`.
__global__ void fill(int *out) {
  out[threadIdx.x] = 2
}
