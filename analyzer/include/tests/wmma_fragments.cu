// Tensor-core GEMM tiles as projects write them: half inputs, float accumulators, loads in both
// layouts, mma_sync, a store.
#include <mma.h>
using namespace nvcuda;

#define M 16
#define N 16
#define K 16

__global__ void gemm_tile(const half *a, const half *b, const float *c, float *d, int ld) {
  wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, ld);
  wmma::load_matrix_sync(fb, b, ld);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::load_matrix_sync(acc, c, ld, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(d, acc, ld, wmma::mem_col_major);
}
