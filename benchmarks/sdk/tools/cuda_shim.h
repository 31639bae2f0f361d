// Host-compiler shim for syntax-checking the SDK-style benchmark kernels with g++:
//   g++ -std=c++17 -fsyntax-only -include cuda_shim.h -x c++ kernel.cu
// It declares just enough of the CUDA device environment (qualifiers, built-in index variables,
// vector types, the intrinsics the kernels call) for the C++ front end to type-check the kernels.
// Nothing here is executable CUDA semantics: the functions are declarations only.
#pragma once
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __forceinline__ inline
#define __restrict__

struct uint3 { unsigned int x, y, z; };
struct dim3 { unsigned int x, y, z; };
extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
extern const int warpSize;

struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
struct uint4 { unsigned int x, y, z, w; };
struct uchar4 { unsigned char x, y, z, w; };
float2 make_float2(float x, float y);
float4 make_float4(float x, float y, float z, float w);
uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);

void __syncthreads();
void __threadfence();
void __threadfence_block();
int atomicAdd(int *address, int val);
unsigned int atomicAdd(unsigned int *address, unsigned int val);
float atomicAdd(float *address, float val);
int __mul24(int a, int b);
unsigned int __umul24(unsigned int a, unsigned int b);
int __ffs(int x);
int __clz(int x);
unsigned int __brev(unsigned int x);
void __sincosf(float x, float *s, float *c);
float __expf(float x);
float __fdividef(float a, float b);
float expf(float x);
float fabsf(float x);
float sqrtf(float x);
int min(int a, int b);
int max(int a, int b);
unsigned int min(unsigned int a, unsigned int b);
unsigned int max(unsigned int a, unsigned int b);
float fminf(float a, float b);
float fmaxf(float a, float b);
