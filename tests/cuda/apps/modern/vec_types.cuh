// Vector load/store helpers for the elementwise kernels of this directory: 16-byte packets of
// floats, halves and bf16 values, and the activation functions the fusions use.
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T, int N>
struct alignas(sizeof(T) * N) Packet {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ Packet<T, N> load_packet(const T *p) {
  return *reinterpret_cast<const Packet<T, N> *>(p);
}

template <typename T, int N>
__device__ __forceinline__ void store_packet(T *p, const Packet<T, N> &x) {
  *reinterpret_cast<Packet<T, N> *>(p) = x;
}

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> __device__ __forceinline__ T from_float(float x);
template <> __device__ __forceinline__ float from_float<float>(float x) { return x; }
template <> __device__ __forceinline__ __half from_float<__half>(float x) { return __float2half(x); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16(x);
}

__device__ __forceinline__ float gelu_tanh(float x) {
  const float k0 = 0.7978845608f;  // sqrt(2 / pi)
  const float k1 = 0.044715f;
  return 0.5f * x * (1.f + tanhf(k0 * (x + k1 * x * x * x)));
}

__device__ __forceinline__ float silu(float x) { return x / (1.f + __expf(-x)); }
