/* autosync stand-in for the CUDA samples' helper_cuda.h. */
#ifndef __AUTOSYNC_HELPER_CUDA_H
#define __AUTOSYNC_HELPER_CUDA_H
#include "cuda_runtime.h"
#include "stdio.h"
#include "stdlib.h"
template <class T> void check(T result, const char *func, const char *file, int line);
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
void __getLastCudaError(const char *errorMessage, const char *file, const int line);
#define getLastCudaError(msg) __getLastCudaError(msg, __FILE__, __LINE__)
void __printLastCudaError(const char *errorMessage, const char *file, const int line);
#define printLastCudaError(msg) __printLastCudaError(msg, __FILE__, __LINE__)
int findCudaDevice(int argc, const char **argv);
int gpuDeviceInit(int devID);
int gpuGetMaxGflopsDeviceId();
int _ConvertSMVer2Cores(int major, int minor);
const char *_ConvertSMVer2ArchName(int major, int minor);
template <class T> const char *_cudaGetErrorEnum(T error);
#ifndef MAX
#define MAX(a, b) (a > b ? a : b)
#endif
#ifndef MIN
#define MIN(a, b) (a < b ? a : b)
#endif
#endif
