//--blockDim=64 --gridDim=1
// As memset_clear.cu, but the start is 2 counters per thread while 4 are cleared.
#include <cstring>
__global__ void zero_hist(unsigned *out)
{
    __shared__ unsigned hist[256];
    memset(hist + threadIdx.x * 2, 0, 4 * sizeof(unsigned));
    __syncthreads();
    out[threadIdx.x] = hist[(threadIdx.x * 4 + 5) % 256];
}
