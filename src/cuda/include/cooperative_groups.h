/* autosync stand-in for cooperative_groups.h (declarations only). */
#ifndef __AUTOSYNC_COOPERATIVE_GROUPS_H
#define __AUTOSYNC_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"
namespace cooperative_groups {
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
};
// CUDA declares these members static; here they are not, so that every call names its group
// object (a member call the lowering reads, never a bare call of a function without a body).
class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
__device__ thread_block this_thread_block();
class grid_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 block_index() const;
  __device__ dim3 dim_blocks() const;
};
__device__ grid_group this_grid();
class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int meta_group_rank() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  __device__ unsigned int ballot(int predicate) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
};
__device__ coalesced_group coalesced_threads();
template <unsigned int Size, class ParentT = void> class thread_block_tile;
// A tile of a known parent converts to the parent-less tile, as in CUDA: by derivation.
template <unsigned int Size> class thread_block_tile<Size, void> : public thread_group {
public:
  static constexpr unsigned int num_threads_v = Size;
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ static constexpr unsigned int size() { return Size; }
  __device__ static constexpr unsigned int num_threads() { return Size; }
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned int mask) const;
  __device__ unsigned int ballot(int predicate) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  template <class T> __device__ unsigned int match_any(T value) const;
};
template <unsigned int Size, class ParentT> class thread_block_tile : public thread_block_tile<Size, void> {};
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int tilesz);
template <class Group> __device__ void sync(const Group &g);
template <class Group> __device__ unsigned long long thread_rank(const Group &g);
template <class Group> __device__ unsigned long long group_size(const Group &g);
namespace details {}
} // namespace cooperative_groups
// `cg::reduce` and its function objects are declared in <cooperative_groups/reduce.h>; code
// that uses them after including only this header compiles with some CUDA versions, so they
// are here too (a stand-in that refused such code would refuse kernels for a header's sake).
#include "cooperative_groups/reduce.h"
#endif
