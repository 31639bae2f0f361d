// pp: -D USE_ATOMIC -D LEVELS=3
#define BLOCK 128
#if 0
  this is not C: it's skipped, "unterminated and all
#endif

__global__ void reduce(int *out, const int *in) {
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
#if BLOCK >= 256
    if (t < 128) s[t] += s[t + 128];
    __syncthreads();
#elif BLOCK >= 128 && LEVELS > 2
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
#else
#error "not reached"
#endif
#ifdef USE_ATOMIC
    if (t == 0) atomicAdd(&out[0], s[0]);
#elif defined(USE_STORE)
    if (t == 0) out[blockIdx.x] = s[0];
#endif
#ifndef __CUDA_ARCH__
    host_only();
#endif
}
