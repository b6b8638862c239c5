// Offsets computed from the block's position in unsigned arithmetic, in a file with no launch
// (the kernels' extents stay open), as library kernels are shipped. Two blocks meet in one
// slot of `per_block` only when `blockIdx.x * 1024` wraps past 2^32: a grid of more than 2^22
// blocks over one buffer, which no program launches on purpose, so the pair is left unknown
// (the run decides under the program's own launch). A race that needs no wrap is still found.
__global__ void per_block(unsigned *out, unsigned n) {
  unsigned base = blockIdx.x * 1024;
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
    if (base + i < n)
      out[base + i] = i;
}

__global__ void per_block_shift(unsigned *out) {
  unsigned base = blockIdx.x << 10;
  for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
    out[base + i] = i;
}

__global__ void per_element(unsigned *out, unsigned n) {
  unsigned at = threadIdx.x + blockIdx.x * blockDim.x * 4;
  for (int i = 0; i < 4 && at < n; i++) {
    out[at] += 1;
    at += blockDim.x;
  }
}

__global__ void one_slot_per_block(unsigned *out) {
  out[blockIdx.x * 4] = threadIdx.x; // RACE
}
