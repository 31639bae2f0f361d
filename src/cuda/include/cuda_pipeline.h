/* autosync stand-in for cuda_pipeline.h: the primitive asynchronous-copy API. */
#ifndef __AUTOSYNC_CUDA_PIPELINE_H
#define __AUTOSYNC_CUDA_PIPELINE_H
#include "cuda_runtime.h"
__device__ void __pipeline_memcpy_async(void *dst_shared, const void *src_global, size_t size_and_align, size_t zfill = 0);
__device__ void __pipeline_commit(void);
__device__ void __pipeline_wait_prior(size_t prior);
__device__ void __pipeline_arrive_on(void *barrier);
#endif
