/* autosync stand-in for the CUDA runtime API (declarations only). Force-included before the
 * user's file, as nvcc does, so kernels parse without any #include. */
#ifndef __AUTOSYNC_CUDA_RUNTIME_H
#define __AUTOSYNC_CUDA_RUNTIME_H
#include "__autosync_core.h"
#include "__autosync_math.h"

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoDevice = 100,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01
#define cudaStreamPerThread ((cudaStream_t)0x2)

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int cooperativeLaunch;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int maxDynamicSharedSizeBytes;
};

enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear, cudaResourceTypePitch2D };
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
typedef struct cudaArray *cudaArray_t;
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int normalizedCoords;
};

extern "C" {
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ const char *cudaGetErrorName(cudaError_t error);
__host__ __device__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__host__ cudaError_t cudaMallocHost(void **ptr, size_t size);
__host__ cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
__host__ cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__host__ __device__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaFreeHost(void *ptr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__host__ __device__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ __device__ cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
__host__ __device__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaSetDevice(int device);
__host__ __device__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaGetDeviceCount(int *count);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__host__ __device__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
__host__ __device__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ __device__ cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *event);
__host__ __device__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__host__ __device__ cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t event);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__host__ __device__ cudaError_t cudaEventDestroy(cudaEvent_t event);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, const void *func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0);
__host__ cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__host__ cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex, const struct cudaResourceDesc *res, const struct cudaTextureDesc *desc, const void *view);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex);
__host__ cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height = 0, unsigned int flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t array);
__host__ cudaError_t cudaProfilerStart(void);
__host__ cudaError_t cudaProfilerStop(void);
__host__ cudaError_t cudaDriverGetVersion(int *version);
__host__ cudaError_t cudaRuntimeGetVersion(int *version);
}

/* The C++ overloads of the runtime (cuda_runtime.h's templates): typed pointers and kernels. */
template <class T> __host__ cudaError_t cudaMalloc(T **devPtr, size_t size);
template <class T> __host__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
template <class T> __host__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0);
template <class T> __host__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height);
template <class T> __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> __host__ cudaError_t cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __host__ cudaError_t cudaLaunchCooperativeKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value);
template <class T> __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func);
template <class T> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize, size_t dynamicSMemSize);
template <class T> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);

/* Texture and surface fetches through texture objects. */
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t tex, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t tex, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t tex, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t tex, float x, float y, float z);
template <class T> __device__ T tex2DLayered(cudaTextureObject_t tex, float x, float y, int layer);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t surf, int x, int y);
template <class T> __device__ void surf2Dwrite(T data, cudaSurfaceObject_t surf, int x, int y);
/* Legacy texture references. */
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
};
template <class T, int dim, enum cudaTextureReadMode mode> __device__ T tex1Dfetch(texture<T, dim, mode> t, int x);
template <class T, int dim, enum cudaTextureReadMode mode> __device__ T tex2D(texture<T, dim, mode> t, float x, float y);

/* Device-side printf and allocation are part of CUDA itself. */
extern "C" __host__ __device__ int printf(const char *format, ...);
extern "C" __host__ __device__ void *malloc(size_t size);
extern "C" __host__ __device__ void free(void *ptr);
extern "C" __host__ __device__ void *memcpy(void *dst, const void *src, size_t n);
extern "C" __host__ __device__ void *memset(void *dst, int c, size_t n);
extern "C" __host__ __device__ void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func);
extern "C" __device__ void __trap(void);
extern "C" __device__ void __brkpt(void);
#endif
