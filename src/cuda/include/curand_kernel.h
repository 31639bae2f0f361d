/* autosync stand-in for curand_kernel.h: device random number generators. */
#ifndef __AUTOSYNC_CURAND_KERNEL_H
#define __AUTOSYNC_CURAND_KERNEL_H
#include "cuda_runtime.h"
struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag; float boxmuller_extra; };
struct curandStatePhilox4_32_10 { uint4 ctr, output; uint2 key; unsigned int STATE; };
struct curandStateMRG32k3a { double s1[3], s2[3]; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
#define __AS_CURAND(S)                                                                        \
  __device__ void curand_init(unsigned long long seed, unsigned long long subsequence,        \
                              unsigned long long offset, S *state);                           \
  __device__ unsigned int curand(S *state);                                                   \
  __device__ float curand_uniform(S *state);                                                  \
  __device__ double curand_uniform_double(S *state);                                          \
  __device__ float curand_normal(S *state);                                                   \
  __device__ double curand_normal_double(S *state);                                           \
  __device__ float2 curand_normal2(S *state);                                                 \
  __device__ float curand_log_normal(S *state, float mean, float stddev);                     \
  __device__ unsigned int curand_poisson(S *state, double lambda);                            \
  __device__ void skipahead(unsigned long long n, S *state);
__AS_CURAND(curandStateXORWOW_t)
__AS_CURAND(curandStatePhilox4_32_10_t)
__AS_CURAND(curandStateMRG32k3a_t)
#undef __AS_CURAND
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
#endif
