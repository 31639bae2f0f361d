/* autosync stand-in for the CUDA driver API: the runtime plus the driver's handle types. */
#ifndef __AUTOSYNC_CUDA_H
#define __AUTOSYNC_CUDA_H
#include "cuda_runtime.h"
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef struct CUstream_st *CUstream;
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1 } CUresult;
#define CUDA_VERSION 12000
extern "C" {
CUresult cuInit(unsigned int flags);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev);
CUresult cuGetErrorString(CUresult error, const char **str);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem, CUstream stream, void **params, void **extra);
}
#endif
