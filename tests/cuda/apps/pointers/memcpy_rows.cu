//--blockDim=32 --gridDim=1
// memcpy of whole rows into and out of a shared 2-D tile.
#include <cstring>
__global__ void stage(const float *in, float *out)
{
    __shared__ float rows[32][8];
    int t = threadIdx.x;
    memcpy(rows[t], in + t * 8, 8 * sizeof(float));
    __syncthreads();
    memcpy(out + t * 8, rows[(t + 1) % 32], 8 * sizeof(float));
}
