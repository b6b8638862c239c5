/*
 * gmrace stand-in for <mma.h>: the warp matrix functions of nvcuda::wmma (tensor cores) for
 * half, bfloat16, float and integer fragments.
 *
 * A fragment's elements are spread over the warp's lanes in a layout NVIDIA leaves unspecified;
 * here element e of the tile (row-major numbering) is lane e % 32's slot e / 32. What matters
 * for races is kept: load_matrix_sync reads every element of the tile once, store_matrix_sync
 * writes each once, each by one lane of the warp, and every lane must call them (they are warp
 * collectives, synchronising like __syncwarp()). mma_sync computes D = A * B + C exactly (in
 * the accumulator's type), gathering the operands each lane needs with warp shuffles.
 */
#ifndef GMRACE_MMA_H
#define GMRACE_MMA_H

#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
} // namespace precision

/* The shape of the tile a fragment holds: rows x cols of the M x N x K product. */
template <class _Use, int _M, int _N, int _K> struct __gmr_shape;
template <int _M, int _N, int _K> struct __gmr_shape<matrix_a, _M, _N, _K> {
  static const int rows = _M, cols = _K;
};
template <int _M, int _N, int _K> struct __gmr_shape<matrix_b, _M, _N, _K> {
  static const int rows = _K, cols = _N;
};
template <int _M, int _N, int _K> struct __gmr_shape<accumulator, _M, _N, _K> {
  static const int rows = _M, cols = _N;
};
template <class _Tp> struct __gmr_storage { typedef _Tp type; };
template <> struct __gmr_storage<precision::tf32> { typedef float type; };

template <class _Use, int _M, int _N, int _K, class _Tp, class _Layout = void> class fragment {
public:
  typedef __gmr_shape<_Use, _M, _N, _K> __shape;
  typedef typename __gmr_storage<_Tp>::type element_type;
  typedef typename __gmr_storage<_Tp>::type storage_element_type;
  static const int num_elements = __shape::rows * __shape::cols / 32;
  element_type x[num_elements];
};

static __device__ __forceinline__ unsigned __gmr_lane() { return threadIdx.x % 32u; }

/* The address of element (r, c) of a tile at p with leading dimension ldm. */
template <class _Tp>
static __device__ __forceinline__ _Tp *__gmr_at(_Tp *p, int r, int c, unsigned ldm, bool row_major_mem) {
  return row_major_mem ? p + r * ldm + c : p + c * ldm + r;
}

template <class _Use, int _M, int _N, int _K, class _Tp, class _Layout, class _Src>
static __device__ __forceinline__ void __gmr_load(fragment<_Use, _M, _N, _K, _Tp, _Layout> &f, const _Src *p,
                                                  unsigned ldm, bool row_major_mem) {
  typedef fragment<_Use, _M, _N, _K, _Tp, _Layout> _Frag;
  __syncwarp();
  for (int s = 0; s < _Frag::num_elements; s++) {
    int e = (int)__gmr_lane() + 32 * s;
    int r = e / _Frag::__shape::cols, c = e % _Frag::__shape::cols;
    f.x[s] = *__gmr_at(p, r, c, ldm, row_major_mem);
  }
  __syncwarp();
}

template <class _Use, int _M, int _N, int _K, class _Tp, class _Dst>
static __device__ __forceinline__ void load_matrix_sync(fragment<_Use, _M, _N, _K, _Tp, row_major> &f,
                                                        const _Dst *p, unsigned ldm) {
  __gmr_load(f, p, ldm, true);
}
template <class _Use, int _M, int _N, int _K, class _Tp, class _Dst>
static __device__ __forceinline__ void load_matrix_sync(fragment<_Use, _M, _N, _K, _Tp, col_major> &f,
                                                        const _Dst *p, unsigned ldm) {
  __gmr_load(f, p, ldm, false);
}
template <int _M, int _N, int _K, class _Tp, class _Dst>
static __device__ __forceinline__ void load_matrix_sync(fragment<accumulator, _M, _N, _K, _Tp> &f, const _Dst *p,
                                                        unsigned ldm, layout_t layout) {
  __gmr_load(f, p, ldm, layout == mem_row_major);
}

template <int _M, int _N, int _K, class _Tp, class _Dst>
static __device__ __forceinline__ void store_matrix_sync(_Dst *p, const fragment<accumulator, _M, _N, _K, _Tp> &f,
                                                         unsigned ldm, layout_t layout) {
  typedef fragment<accumulator, _M, _N, _K, _Tp> _Frag;
  __syncwarp();
  for (int s = 0; s < _Frag::num_elements; s++) {
    int e = (int)__gmr_lane() + 32 * s;
    *__gmr_at(p, e / _N, e % _N, ldm, layout == mem_row_major) = f.x[s];
  }
  __syncwarp();
}

template <class _Use, int _M, int _N, int _K, class _Tp, class _Layout, class _Val>
static __device__ __forceinline__ void fill_fragment(fragment<_Use, _M, _N, _K, _Tp, _Layout> &f, const _Val &v) {
  for (int s = 0; s < fragment<_Use, _M, _N, _K, _Tp, _Layout>::num_elements; s++)
    f.x[s] = v;
}

/* Element e of a fragment, from whichever lane holds it (every lane asks at once). */
template <class _Frag>
static __device__ __forceinline__ typename _Frag::element_type __gmr_element(const _Frag &f, int e) {
  typename _Frag::element_type v = f.x[0];
  for (int s = 0; s < _Frag::num_elements; s++) {
    typename _Frag::element_type got = __shfl_sync(0xffffffffu, f.x[s], e % 32);
    if (s == e / 32)
      v = got;
  }
  return v;
}

template <int _M, int _N, int _K, class _Ta, class _La, class _Tb, class _Lb, class _Tc, class _Td>
static __device__ __forceinline__ void mma_sync(fragment<accumulator, _M, _N, _K, _Td> &d,
                                                const fragment<matrix_a, _M, _N, _K, _Ta, _La> &a,
                                                const fragment<matrix_b, _M, _N, _K, _Tb, _Lb> &b,
                                                const fragment<accumulator, _M, _N, _K, _Tc> &c) {
  typedef fragment<accumulator, _M, _N, _K, _Td> _Out;
  typename _Out::element_type out[_Out::num_elements];
  for (int s = 0; s < _Out::num_elements; s++) {
    int e = (int)__gmr_lane() + 32 * s;
    int m = e / _N, n = e % _N;
    typename _Out::element_type acc = c.x[s];
    for (int k = 0; k < _K; k++)
      acc += (typename _Out::element_type)((float)__gmr_element(a, m * _K + k) *
                                           (float)__gmr_element(b, k * _N + n));
    out[s] = acc;
  }
  for (int s = 0; s < _Out::num_elements; s++)
    d.x[s] = out[s];
}

} // namespace wmma
} // namespace nvcuda

#endif /* GMRACE_MMA_H */
