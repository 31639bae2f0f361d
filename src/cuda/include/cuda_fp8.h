/* autosync stand-in for cuda_fp8.h: 8-bit float storage types and conversions. */
#ifndef __AUTOSYNC_CUDA_FP8_H
#define __AUTOSYNC_CUDA_FP8_H
#include "cuda_fp16.h"
#include "cuda_bf16.h"
typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
#define __AS_FP8(NAME)                                                                        \
  struct NAME {                                                                               \
    __nv_fp8_storage_t __x;                                                                   \
    NAME() = default;                                                                         \
    __host__ __device__ explicit NAME(float f);                                               \
    __host__ __device__ explicit NAME(double f);                                              \
    __host__ __device__ explicit NAME(__half f);                                              \
    __host__ __device__ explicit NAME(__nv_bfloat16 f);                                       \
    __host__ __device__ explicit operator float() const;                                      \
    __host__ __device__ explicit operator __half() const;                                     \
  };
__AS_FP8(__nv_fp8_e4m3)
__AS_FP8(__nv_fp8_e5m2)
#undef __AS_FP8
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t sat, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t sat, __nv_fp8_interpretation_t fp8_interpretation);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x, __nv_fp8_interpretation_t fp8_interpretation);
#endif
