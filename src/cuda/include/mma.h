/* autosync stand-in for mma.h: the warp matrix (WMMA) API. */
#ifndef __AUTOSYNC_MMA_H
#define __AUTOSYNC_MMA_H
#include "cuda_fp16.h"
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
struct b1 {};
struct s4 {};
struct u4 {};
} // namespace precision
template <class T> struct __autosync_storage { typedef T type; };
template <> struct __autosync_storage<precision::tf32> { typedef float type; };
template <class Use, int m, int n, int k, class T, class Layout = void> class fragment {
public:
  enum { num_elements = 8 };
  typename __autosync_storage<T>::type x[8];
};
template <class Use, int m, int n, int k, class T, class Layout>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const T *p, unsigned int ldm);
template <class Use, int m, int n, int k, class T, class Layout, class P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a, const P *p, unsigned int ldm);
template <int m, int n, int k, class T>
__device__ void load_matrix_sync(fragment<accumulator, m, n, k, T> &a, const T *p, unsigned int ldm, layout_t layout);
template <int m, int n, int k, class T>
__device__ void store_matrix_sync(T *p, const fragment<accumulator, m, n, k, T> &a, unsigned int ldm, layout_t layout);
template <class Use, int m, int n, int k, class T, class Layout, class V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a, const V &v);
template <int m, int n, int k, class Ta, class La, class Tb, class Lb, class Tc, class Td>
__device__ void mma_sync(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, Ta, La> &a,
                         const fragment<matrix_b, m, n, k, Tb, Lb> &b, const fragment<accumulator, m, n, k, Tc> &c);
__device__ float __float_to_tf32(float in);
} // namespace wmma
} // namespace nvcuda
#endif
