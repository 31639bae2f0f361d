/* autosync stand-in: the CUDA language core that nvcc makes implicit (execution-space
 * attributes, built-in variables, vector types, intrinsics). Declarations only; parsed by
 * clang in device-only syntax mode, never compiled. */
#ifndef __AUTOSYNC_CORE_H
#define __AUTOSYNC_CORE_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define CUDART_VERSION 12000

typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;

/* Built-in index variables. A read of threadIdx.x goes through a property getter, so the
 * variables cannot be assigned or have their address taken, as with nvcc. The getter names
 * `__fetch_x`/`__fetch_y`/`__fetch_z` are what the model reads to name the component. */
#define __AS_BUILTIN_VAR(TAG, SX, SY, SZ)                                                     \
  struct TAG {                                                                                \
    __declspec(property(get = __fetch_x)) unsigned int x;                                     \
    __declspec(property(get = __fetch_y)) unsigned int y;                                     \
    __declspec(property(get = __fetch_z)) unsigned int z;                                     \
    static __device__ __forceinline__ unsigned int __fetch_x() { return SX(); }               \
    static __device__ __forceinline__ unsigned int __fetch_y() { return SY(); }               \
    static __device__ __forceinline__ unsigned int __fetch_z() { return SZ(); }               \
    __device__ operator struct uint3() const;                                                 \
    __device__ operator struct dim3() const;                                                  \
                                                                                              \
  private:                                                                                    \
    TAG() = delete;                                                                           \
    TAG(const TAG &) = delete;                                                                \
    void operator=(const TAG &) const = delete;                                               \
    TAG *operator&() const = delete;                                                          \
  };

__AS_BUILTIN_VAR(__autosync_threadIdx_t, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_tid_y,
                 __nvvm_read_ptx_sreg_tid_z)
__AS_BUILTIN_VAR(__autosync_blockIdx_t, __nvvm_read_ptx_sreg_ctaid_x, __nvvm_read_ptx_sreg_ctaid_y,
                 __nvvm_read_ptx_sreg_ctaid_z)
__AS_BUILTIN_VAR(__autosync_blockDim_t, __nvvm_read_ptx_sreg_ntid_x, __nvvm_read_ptx_sreg_ntid_y,
                 __nvvm_read_ptx_sreg_ntid_z)
__AS_BUILTIN_VAR(__autosync_gridDim_t, __nvvm_read_ptx_sreg_nctaid_x, __nvvm_read_ptx_sreg_nctaid_y,
                 __nvvm_read_ptx_sreg_nctaid_z)
#undef __AS_BUILTIN_VAR

extern const __device__ __autosync_threadIdx_t threadIdx;
extern const __device__ __autosync_blockIdx_t blockIdx;
extern const __device__ __autosync_blockDim_t blockDim;
extern const __device__ __autosync_gridDim_t gridDim;
extern const __device__ int warpSize;

/* Vector types: NAME1..NAME4 with x/y/z/w members and make_NAMEn. */
#define __AS_VEC(T, NAME, A2, A4)                                                             \
  struct NAME##1 { T x; };                                                                    \
  struct __attribute__((aligned(A2))) NAME##2 { T x, y; };                                    \
  struct NAME##3 { T x, y, z; };                                                              \
  struct __attribute__((aligned(A4))) NAME##4 { T x, y, z, w; };                              \
  typedef struct NAME##1 NAME##1;                                                             \
  typedef struct NAME##2 NAME##2;                                                             \
  typedef struct NAME##3 NAME##3;                                                             \
  typedef struct NAME##4 NAME##4;                                                             \
  __host__ __device__ NAME##1 make_##NAME##1(T x);                                            \
  __host__ __device__ NAME##2 make_##NAME##2(T x, T y);                                       \
  __host__ __device__ NAME##3 make_##NAME##3(T x, T y, T z);                                  \
  __host__ __device__ NAME##4 make_##NAME##4(T x, T y, T z, T w);                            \
  __AS_CACHED(NAME##1) __AS_CACHED(NAME##2) __AS_CACHED(NAME##3) __AS_CACHED(NAME##4)
/* Loads and stores with a cache hint: a plain load or store of the whole vector. */
#define __AS_CACHED(V)                                                                        \
  __device__ inline V __ldg(const V *p) { return *p; }                                        \
  __device__ inline V __ldcg(const V *p) { return *p; }                                       \
  __device__ inline V __ldca(const V *p) { return *p; }                                       \
  __device__ inline V __ldcs(const V *p) { return *p; }                                       \
  __device__ inline V __ldlu(const V *p) { return *p; }                                       \
  __device__ inline V __ldcv(const V *p) { return *p; }                                       \
  __device__ inline void __stcg(V *p, V v) { *p = v; }                                        \
  __device__ inline void __stcs(V *p, V v) { *p = v; }                                        \
  __device__ inline void __stwb(V *p, V v) { *p = v; }                                        \
  __device__ inline void __stwt(V *p, V v) { *p = v; }
__AS_VEC(signed char, char, 2, 4)
__AS_VEC(unsigned char, uchar, 2, 4)
__AS_VEC(short, short, 4, 8)
__AS_VEC(unsigned short, ushort, 4, 8)
__AS_VEC(int, int, 8, 16)
__AS_VEC(unsigned int, uint, 8, 16)
__AS_VEC(long, long, 16, 16)
__AS_VEC(unsigned long, ulong, 16, 16)
__AS_VEC(long long, longlong, 16, 16)
__AS_VEC(unsigned long long, ulonglong, 16, 16)
__AS_VEC(float, float, 8, 16)
__AS_VEC(double, double, 16, 16)
#undef __AS_VEC

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

/* Barriers and fences. */
__device__ void __syncthreads(void);
/* Address-space conversions (the shared-memory address `cp.async` and `ldmatrix` take). */
extern "C" __device__ size_t __cvta_generic_to_shared(const void *ptr);
extern "C" __device__ void *__cvta_shared_to_generic(size_t addr);
/* GPUVerify's annotations, so files written for it parse: the lowering reads `__requires` and
   `__assume` as assumptions, `__implies` and `__is_pow2` as the conditions they name. */
__device__ void __requires(bool);
__device__ void __assume(bool);
__device__ bool __implies(bool, bool);
__device__ bool __is_pow2(unsigned int);
/* The annotations autosync ignores (src/clang/annotations.rs), with any arguments, and the
   specification functions that appear inside them. */
template <class... __T> __device__ bool __assert(__T...);
template <class... __T> __device__ bool __global_assert(__T...);
template <class... __T> __device__ bool __ensures(__T...);
template <class... __T> __device__ bool __invariant(__T...);
template <class... __T> __device__ bool __global_invariant(__T...);
template <class... __T> __device__ bool __function_wide_invariant(__T...);
template <class... __T> __device__ bool __candidate_invariant(__T...);
template <class... __T> __device__ bool __candidate_global_invariant(__T...);
template <class... __T> __device__ bool __function_wide_candidate_invariant(__T...);
template <class... __T> __device__ bool __reads_from(__T...);
template <class... __T> __device__ bool __writes_to(__T...);
template <class... __T> __device__ bool __reads_from_local(__T...);
template <class... __T> __device__ bool __writes_to_local(__T...);
template <class... __T> __device__ bool __reads_from_global(__T...);
template <class... __T> __device__ bool __writes_to_global(__T...);
template <class... __T> __device__ bool __no_read(__T...);
template <class... __T> __device__ bool __no_write(__T...);
template <class... __T> __device__ bool __no_read_local(__T...);
template <class... __T> __device__ bool __no_write_local(__T...);
template <class... __T> __device__ bool __no_read_global(__T...);
template <class... __T> __device__ bool __no_write_global(__T...);
template <class... __T> __device__ bool __read_implies(__T...);
template <class... __T> __device__ bool __write_implies(__T...);
template <class... __T> __device__ bool __array_snapshot(__T...);
template <class... __T> __device__ bool __non_temporal_loads_begin(__T...);
template <class... __T> __device__ bool __non_temporal_loads_end(__T...);
template <class... __T> __device__ bool __barrier_invariant(__T...);
template <class... __T> __device__ bool __barrier_invariant_binary(__T...);
template <class... __T> __device__ bool __assert_on_bug(__T...);
template <class __T> __device__ int __read_offset_bytes(__T);
template <class __T> __device__ int __write_offset_bytes(__T);
template <class __T> __device__ bool __read(__T);
template <class __T> __device__ bool __write(__T);
template <class __T> __device__ bool __atomic(__T);
template <class __T> __device__ __T __other_int(__T);
template <class __T> __device__ bool __same_group(__T);
__device__ bool __enabled(void);
__device__ bool __uniform_bool(bool);
__device__ int __uniform_int(int);
__device__ bool __distinct_bool(bool);
__device__ int __distinct_int(int);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __nanosleep(unsigned int ns);
__device__ long long clock64(void);
__device__ long clock(void);
__device__ unsigned long long __globaltimer(void);

/* Warp intrinsics, one overload per element type as the CUDA headers have them. */
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __activemask(void);
__device__ unsigned int __lanemask_lt(void);
#define __AS_SHFL(T)                                                                          \
  __device__ T __shfl_sync(unsigned int mask, T var, int src, int width = 32);                \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);  \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);\
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32);      \
  __device__ T __shfl(T var, int src, int width = 32);                                        \
  __device__ T __shfl_up(T var, unsigned int delta, int width = 32);                          \
  __device__ T __shfl_down(T var, unsigned int delta, int width = 32);                        \
  __device__ T __shfl_xor(T var, int lane_mask, int width = 32);                              \
  __device__ unsigned int __match_any_sync(unsigned int mask, T value);                       \
  __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);            \
  __device__ T __ldg(const T *ptr);                                                           \
  __device__ T __ldcg(const T *ptr);                                                          \
  __device__ T __ldcs(const T *ptr);                                                          \
  __device__ void __stcg(T *ptr, T value);                                                    \
  __device__ void __stcs(T *ptr, T value);                                                    \
  __device__ void __stwb(T *ptr, T value);                                                    \
  __device__ void __stwt(T *ptr, T value);
__AS_SHFL(int)
__AS_SHFL(unsigned int)
__AS_SHFL(long)
__AS_SHFL(unsigned long)
__AS_SHFL(long long)
__AS_SHFL(unsigned long long)
__AS_SHFL(float)
__AS_SHFL(double)
#undef __AS_SHFL
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);

/* Atomics. */
#define __AS_ATOMIC_ARITH(T)                                                                  \
  __device__ T atomicAdd(T *address, T val);                                                  \
  __device__ T atomicAdd_block(T *address, T val);                                            \
  __device__ T atomicAdd_system(T *address, T val);
#define __AS_ATOMIC_INT_SCOPE(T, S)                                                           \
  __device__ T atomicExch##S(T *address, T val);                                              \
  __device__ T atomicSub##S(T *address, T val);                                               \
  __device__ T atomicMin##S(T *address, T val);                                               \
  __device__ T atomicMax##S(T *address, T val);                                               \
  __device__ T atomicAnd##S(T *address, T val);                                               \
  __device__ T atomicOr##S(T *address, T val);                                                \
  __device__ T atomicXor##S(T *address, T val);                                               \
  __device__ T atomicCAS##S(T *address, T compare, T val);
#define __AS_ATOMIC_INT(T)                                                                    \
  __AS_ATOMIC_ARITH(T)                                                                        \
  __AS_ATOMIC_INT_SCOPE(T, )                                                                  \
  __AS_ATOMIC_INT_SCOPE(T, _block)                                                            \
  __AS_ATOMIC_INT_SCOPE(T, _system)
__AS_ATOMIC_INT(int)
__AS_ATOMIC_INT(unsigned int)
__AS_ATOMIC_INT(unsigned long long)
__AS_ATOMIC_INT(long long)
__AS_ATOMIC_ARITH(float)
__AS_ATOMIC_ARITH(double)
#undef __AS_ATOMIC_INT
#undef __AS_ATOMIC_INT_SCOPE
#undef __AS_ATOMIC_ARITH
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);
__device__ unsigned int atomicInc_block(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_block(unsigned int *address, unsigned int val);
__device__ unsigned int atomicInc_system(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_system(unsigned int *address, unsigned int val);
__device__ float atomicExch(float *address, float val);
__device__ float atomicExch_block(float *address, float val);
__device__ float atomicExch_system(float *address, float val);
__device__ double atomicExch(double *address, double val);
__device__ unsigned short atomicCAS(unsigned short *address, unsigned short compare, unsigned short val);
__device__ float2 atomicAdd(float2 *address, float2 val);
__device__ float4 atomicAdd(float4 *address, float4 val);

/* Integer and bit intrinsics. */
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__device__ int __dp4a(int srcA, int srcB, int c);

/* Float intrinsics and conversions. */
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float __powf(float x, float y);
__device__ float __fdividef(float x, float y);
__device__ float __frcp_rn(float x);
__device__ float __fsqrt_rn(float x);
__device__ float __frsqrt_rn(float x);
__device__ float __saturatef(float x);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ float __fadd_rn(float x, float y);
__device__ float __fsub_rn(float x, float y);
__device__ float __fmul_rn(float x, float y);
__device__ float __fdiv_rn(float x, float y);
__device__ double __dadd_rn(double x, double y);
__device__ double __dmul_rn(double x, double y);
__device__ double __fma_rn(double x, double y, double z);
__device__ int __float_as_int(float x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __int_as_float(int x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ int __float2int_rd(float x);
__device__ int __float2int_ru(float x);
__device__ unsigned int __float2uint_rn(float x);
__device__ unsigned int __float2uint_rz(float x);
__device__ unsigned int __float2uint_rd(float x);
__device__ unsigned int __float2uint_ru(float x);
__device__ float __int2float_rn(int x);
__device__ float __uint2float_rn(unsigned int x);
__device__ int __double2int_rn(double x);
__device__ float __double2float_rn(double x);
__device__ int __hiloint2double(int hi, int lo);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);

/* Kernel launch: clang lowers `k<<<g, b, s, t>>>(...)` to a call of this function. */
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize, size_t sharedSize = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize,
                                                size_t sharedSize = 0, void *stream = 0);

#endif
