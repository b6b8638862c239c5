// Tensor-core tiles (nvcuda::wmma): each warp of the block computes one 16x16 tile of C from
// shared copies of A and B. In `tiles`, warp w stores its tile at column 16*w; in
// `overlapping_tiles` at column 8*w, so two warps' stores overlap: an inter-warp race that only
// the store's footprint (every element of the tile, one lane each) shows.
#include <mma.h>
using namespace nvcuda;

#define WARPS 4
#define LD (16 * WARPS)

__global__ void tiles(const half *a, const half *b, float *c) {
  __shared__ half sa[16 * 16];
  __shared__ half sb[16 * LD];
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x) sa[i] = a[i];
  for (int i = threadIdx.x; i < 16 * LD; i += blockDim.x) sb[i] = b[i];
  __syncthreads();
  int w = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb + 16 * w, LD);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c + 16 * w, acc, LD, wmma::mem_row_major);
}

__global__ void overlapping_tiles(const half *a, const half *b, float *c) {
  __shared__ half sa[16 * 16];
  __shared__ float sc[16 * LD];
  for (int i = threadIdx.x; i < 16 * 16; i += blockDim.x) sa[i] = a[i];
  __syncthreads();
  int w = threadIdx.x / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sa, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(sc + 8 * w, acc, LD, wmma::mem_row_major); // RACE
  __syncthreads();
  c[threadIdx.x] = sc[threadIdx.x];
}

int main() {
  half *a, *b;
  float *c;
  tiles<<<1, 32 * WARPS>>>(a, b, c);
  overlapping_tiles<<<1, 32 * WARPS>>>(a, b, c);
}
