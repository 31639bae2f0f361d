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
#include "../assert.h"
namespace c10 {
struct Half { unsigned short x; Half() = default; __host__ __device__ Half(float f); __host__ __device__ operator float() const; };
struct BFloat16 { unsigned short x; BFloat16() = default; __host__ __device__ BFloat16(float f); __host__ __device__ operator float() const; };
enum class ScalarType { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 };
struct Device { bool is_cuda() const; int index() const; };
template <class T> class ArrayRef {
public:
  ArrayRef(std::initializer_list<T> list);
  ArrayRef(const std::vector<T> &v);
  ArrayRef(const T &one);
  const T *data() const;
  size_t size() const;
  bool empty() const;
  T operator[](size_t i) const;
  T front() const;
  T back() const;
  const T *begin() const;
  const T *end() const;
  std::vector<T> vec() const;
  bool equals(ArrayRef other) const;
};
template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b);
template <class T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b);
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
  TensorOptions requires_grad(bool r) const;
  TensorOptions layout(int l) const;
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
  Tensor to(c10::Device d) const;
  Tensor to(TensorOptions o) const;
  template <class T> const T *const_data_ptr() const;
  template <class T> T *mutable_data_ptr() const;
  template <class T> T item() const;
  bool defined() const;
  int64_t ndimension() const;
  int64_t element_size() const;
  IntArrayRef strides() const;
  int64_t get_device() const;
  Tensor view(IntArrayRef shape) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor flatten(int64_t start = 0, int64_t end = -1) const;
  Tensor transpose(int64_t a, int64_t b) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor t() const;
  Tensor slice(int64_t dim, int64_t start, int64_t end, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze(int64_t dim) const;
  Tensor expand(IntArrayRef shape) const;
  Tensor clone() const;
  Tensor detach() const;
  Tensor &zero_();
  Tensor &fill_(double v);
  Tensor &copy_(const Tensor &src);
  Tensor sum() const;
  Tensor mean() const;
  Tensor max() const;
  Tensor abs() const;
  Tensor sqrt() const;
  Tensor exp() const;
  Tensor index_select(int64_t dim, const Tensor &index) const;
  Tensor masked_fill(const Tensor &mask, double v) const;
  Tensor operator+(const Tensor &o) const;
  Tensor operator-(const Tensor &o) const;
  Tensor operator*(const Tensor &o) const;
  Tensor operator/(const Tensor &o) const;
  Tensor operator*(double v) const;
  Tensor half() const;
  Tensor bfloat16() const;
  template <class T, size_t N> struct __accessor { T *data() const; };
  template <class T, size_t N> __accessor<T, N> packed_accessor32() const;
};
Tensor empty(IntArrayRef size, TensorOptions options);
Tensor zeros(IntArrayRef size, TensorOptions options);
Tensor ones(IntArrayRef size, TensorOptions options);
Tensor full(IntArrayRef size, double value, TensorOptions options);
Tensor arange(int64_t end, TensorOptions options);
Tensor randn(IntArrayRef size, TensorOptions options);
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options);
Tensor empty_like(const Tensor &t);
Tensor empty_like(const Tensor &t, TensorOptions options);
Tensor zeros_like(const Tensor &t);
Tensor zeros_like(const Tensor &t, TensorOptions options);
Tensor ones_like(const Tensor &t);
Tensor matmul(const Tensor &a, const Tensor &b);
Tensor cat(std::vector<Tensor> ts, int64_t dim);
Tensor stack(std::vector<Tensor> ts, int64_t dim);
namespace cuda {
cudaStream_t getCurrentCUDAStream();
}
const ScalarType kFloat = ScalarType::Float;
const ScalarType kDouble = ScalarType::Double;
const ScalarType kHalf = ScalarType::Half;
const ScalarType kBFloat16 = ScalarType::BFloat16;
const ScalarType kInt = ScalarType::Int;
const ScalarType kLong = ScalarType::Long;
const ScalarType kByte = ScalarType::Byte;
const ScalarType kChar = ScalarType::Char;
const ScalarType kBool = ScalarType::Bool;
const ScalarType kInt8 = ScalarType::Char;
const ScalarType kUInt8 = ScalarType::Byte;
const ScalarType kInt16 = ScalarType::Short;
const ScalarType kShort = ScalarType::Short;
const ScalarType kInt32 = ScalarType::Int;
const ScalarType kInt64 = ScalarType::Long;
const ScalarType kFloat16 = ScalarType::Half;
const ScalarType kFloat32 = ScalarType::Float;
const ScalarType kFloat64 = ScalarType::Double;
const c10::Device kCUDA = c10::Device();
const c10::Device kCPU = c10::Device();
} // namespace at
namespace torch {
using at::Tensor;
using at::empty;
using at::zeros;
using at::empty_like;
using at::zeros_like;
using at::kFloat;
using at::kDouble;
using at::kHalf;
using at::kBFloat16;
using at::kInt;
using at::kLong;
using at::kByte;
using at::kChar;
using at::kBool;
using at::kInt8;
using at::kUInt8;
using at::kInt16;
using at::kShort;
using at::kInt32;
using at::kInt64;
using at::kFloat16;
using at::kFloat32;
using at::kFloat64;
using at::kCUDA;
using at::kCPU;
using at::ones;
using at::full;
using at::arange;
using at::randn;
using at::empty_strided;
using at::ones_like;
using at::matmul;
using at::cat;
using at::stack;
using at::TensorOptions;
using at::IntArrayRef;
using at::ScalarType;
using c10::Half;
using c10::BFloat16;
} // namespace torch
// A failed check throws (`c10::Error`) in PyTorch whatever NDEBUG says: here it ends the program
// the way `assert` does, so the host code's checks are facts of the launches after them.
#define TORCH_CHECK(cond, ...) ((cond) ? (void)0 : __assert_fail(#cond, __FILE__, __LINE__, __func__))
#define AT_ASSERTM(cond, ...) ((cond) ? (void)0 : __assert_fail(#cond, __FILE__, __LINE__, __func__))
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
// With one or two extra types (`at::kHalf`, `at::ScalarType::BFloat16`): both half-precision
// types are instantiated, whichever are named (a macro cannot map an enumerator to a type), so
// every instance the extension can launch is checked, and maybe one more.
#define AT_DISPATCH_FLOATING_TYPES_AND(EXTRA, TYPE, NAME, ...)                                 \
  [&] {                                                                                         \
    { using scalar_t = float; __VA_ARGS__(); }                                                  \
    { using scalar_t = double; __VA_ARGS__(); }                                                 \
    { using scalar_t = at::Half; __VA_ARGS__(); }                                               \
    { using scalar_t = at::BFloat16; __VA_ARGS__(); }                                           \
  }()
#define AT_DISPATCH_FLOATING_TYPES_AND2(EXTRA1, EXTRA2, TYPE, NAME, ...)                       \
  AT_DISPATCH_FLOATING_TYPES_AND(EXTRA1, TYPE, NAME, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...)                                    \
  [&] {                                                                                         \
    { using scalar_t = at::Half; __VA_ARGS__(); }                                               \
    { using scalar_t = at::BFloat16; __VA_ARGS__(); }                                           \
  }()
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...)                                            \
  [&] {                                                                                         \
    { using scalar_t = uint8_t; __VA_ARGS__(); }                                                \
    { using scalar_t = int8_t; __VA_ARGS__(); }                                                 \
    { using scalar_t = int16_t; __VA_ARGS__(); }                                                \
    { using scalar_t = int32_t; __VA_ARGS__(); }                                                \
    { using scalar_t = int64_t; __VA_ARGS__(); }                                                \
  }()
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...)                                                 \
  [&] {                                                                                         \
    AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, __VA_ARGS__);                                        \
    AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, __VA_ARGS__);                                        \
  }()
// The module body is host glue (m.def(...)); it becomes an unused function that is never parsed
// for device code, and its body is dropped by the macro below.
#define PYBIND11_MODULE(name, m) template <class __AutosyncModule> static void __autosync_pybind_##name(__AutosyncModule &m)
#endif
