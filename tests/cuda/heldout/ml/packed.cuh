// 128-bit packed vector of any element type, for vectorised global loads/stores.
#pragma once

#include "common.cuh"

template <class ElementType>
struct alignas(16) Packed128 {
  static constexpr int size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];

  __device__ ElementType& operator[](int index) { return payload[index]; }
  __device__ const ElementType& operator[](int index) const { return payload[index]; }

  __device__ static Packed128 constant(ElementType value) {
    Packed128 result;
#pragma unroll
    for (int k = 0; k < size; ++k) result.payload[k] = value;
    return result;
  }
};

template <class ElementType>
__device__ __forceinline__ Packed128<ElementType> load128(const ElementType* address) {
  return *reinterpret_cast<const Packed128<ElementType>*>(address);
}

template <class ElementType>
__device__ __forceinline__ void store128(ElementType* target, Packed128<ElementType> value) {
  *reinterpret_cast<Packed128<ElementType>*>(target) = value;
}

typedef Packed128<__nv_bfloat16> x128;
typedef Packed128<float> f128;
