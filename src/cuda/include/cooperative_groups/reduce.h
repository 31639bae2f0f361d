/* autosync stand-in for cooperative_groups/reduce.h. */
#ifndef __AUTOSYNC_CG_REDUCE_H
#define __AUTOSYNC_CG_REDUCE_H
#include "../cooperative_groups.h"
namespace cooperative_groups {
template <class T> struct plus { __device__ T operator()(const T &a, const T &b) const; };
template <class T> struct less { __device__ T operator()(const T &a, const T &b) const; };
template <class T> struct greater { __device__ T operator()(const T &a, const T &b) const; };
template <class T> struct bit_and { __device__ T operator()(const T &a, const T &b) const; };
template <class T> struct bit_or { __device__ T operator()(const T &a, const T &b) const; };
template <class T> struct bit_xor { __device__ T operator()(const T &a, const T &b) const; };
template <class Group, class T, class Op> __device__ T reduce(const Group &group, T &&val, Op &&op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &group, T &&val, Op &&op);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &group, T &&val, Op &&op);
template <class Group, class T> __device__ T inclusive_scan(const Group &group, T &&val);
template <class Group, class T> __device__ T exclusive_scan(const Group &group, T &&val);
} // namespace cooperative_groups
#endif
