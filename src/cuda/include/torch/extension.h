// autosync stand-in for <torch/extension.h>: only what CUDA extension files use around their
// kernels. A tensor is opaque; the pybind11 module body is swallowed, since it is host glue.
#ifndef __AUTOSYNC_TORCH_EXTENSION_H
#define __AUTOSYNC_TORCH_EXTENSION_H
#include "../cuda_runtime.h"
#include "../cuda_fp16.h"
#include "../vector"
#include "../string"
#include "../cstdint"
#include "../initializer_list"
namespace c10 {
struct Half { unsigned short x; Half() = default; __host__ __device__ Half(float f); __host__ __device__ operator float() const; };
struct BFloat16 { unsigned short x; BFloat16() = default; __host__ __device__ BFloat16(float f); __host__ __device__ operator float() const; };
enum class ScalarType { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 };
struct Device { bool is_cuda() const; int index() const; };
template <class T> class ArrayRef { public: ArrayRef(std::initializer_list<T> list); const T *data() const; size_t size() const; T operator[](size_t i) const; };
typedef ArrayRef<int64_t> IntArrayRef;
} // namespace c10
namespace at {
using c10::Half;
using c10::BFloat16;
using c10::ScalarType;
using c10::IntArrayRef;
class TensorOptions {
public:
  TensorOptions dtype(ScalarType t) const;
  TensorOptions device(c10::Device d) const;
};
class Tensor {
public:
  template <class T> T *data_ptr() const;
  void *data_ptr() const;
  template <class T> T *data() const;
  int64_t size(int64_t dim) const;
  IntArrayRef sizes() const;
  int64_t stride(int64_t dim) const;
  int64_t numel() const;
  int64_t dim() const;
  ScalarType scalar_type() const;
  c10::Device device() const;
  TensorOptions options() const;
  bool is_cuda() const;
  bool is_contiguous() const;
  Tensor contiguous() const;
  Tensor to(ScalarType t) const;
  template <class T, size_t N> struct __accessor { T *data() const; };
  template <class T, size_t N> __accessor<T, N> packed_accessor32() const;
};
Tensor empty(IntArrayRef size, TensorOptions options);
Tensor zeros(IntArrayRef size, TensorOptions options);
Tensor empty_like(const Tensor &t);
Tensor zeros_like(const Tensor &t);
namespace cuda {
cudaStream_t getCurrentCUDAStream();
}
const ScalarType kFloat = ScalarType::Float;
const ScalarType kHalf = ScalarType::Half;
const ScalarType kInt = ScalarType::Int;
} // namespace at
namespace torch {
using at::Tensor;
using at::empty;
using at::zeros;
using at::empty_like;
using at::zeros_like;
const at::ScalarType kFloat32 = at::ScalarType::Float;
const at::ScalarType kFloat16 = at::ScalarType::Half;
const at::ScalarType kInt32 = at::ScalarType::Int;
} // namespace torch
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define AT_ASSERTM(cond, ...) ((void)(cond))
#define TORCH_EXTENSION_NAME autosync_extension
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
// The dispatch runs its lambda once per type with `scalar_t` naming it, as ATen's does: every
// instance the extension can launch is instantiated (and checked).
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                                            \
  [&] {                                                                                         \
    { using scalar_t = float; __VA_ARGS__(); }                                                  \
    { using scalar_t = double; __VA_ARGS__(); }                                                 \
  }()
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)                                   \
  [&] {                                                                                         \
    { using scalar_t = float; __VA_ARGS__(); }                                                  \
    { using scalar_t = double; __VA_ARGS__(); }                                                 \
    { using scalar_t = at::Half; __VA_ARGS__(); }                                               \
  }()
// The module body is host glue (m.def(...)); it becomes an unused function that is never parsed
// for device code, and its body is dropped by the macro below.
#define PYBIND11_MODULE(name, m) template <class __AutosyncModule> static void __autosync_pybind_##name(__AutosyncModule &m)
#endif
