// autosync stand-in for <ATen/AccumulateType.h>: the accumulation type of a scalar type, as
// ATen's CUDA kernels use it (half-precision types accumulate in float).
#ifndef __AUTOSYNC_ATEN_ACCUMULATE_TYPE_H
#define __AUTOSYNC_ATEN_ACCUMULATE_TYPE_H
#include "../torch/extension.h"
namespace at {
template <typename T, bool is_cuda> struct AccumulateType { using type = T; };
template <bool is_cuda> struct AccumulateType<c10::Half, is_cuda> { using type = float; };
template <bool is_cuda> struct AccumulateType<c10::BFloat16, is_cuda> { using type = float; };
template <> struct AccumulateType<float, false> { using type = double; };
template <bool is_cuda> struct AccumulateType<int, is_cuda> { using type = int64_t; };
template <bool is_cuda> struct AccumulateType<int64_t, is_cuda> { using type = int64_t; };
template <typename T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;
} // namespace at
#endif
