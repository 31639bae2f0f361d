//--blockDim=64 --gridDim=1
// Each thread clears four counters of a shared histogram with memset.
#include <cstring>
__global__ void zero_hist(unsigned *out)
{
    __shared__ unsigned hist[256];
    memset(hist + threadIdx.x * 4, 0, 4 * sizeof(unsigned));
    __syncthreads();
    out[threadIdx.x] = hist[(threadIdx.x * 4 + 5) % 256];
}
