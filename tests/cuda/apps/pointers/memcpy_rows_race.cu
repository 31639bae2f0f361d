//--blockDim=32 --gridDim=1
// As memcpy_rows.cu without the barrier.
#include <cstring>
__global__ void stage(const float *in, float *out)
{
    __shared__ float rows[32][8];
    int t = threadIdx.x;
    memcpy(rows[t], in + t * 8, 8 * sizeof(float));
    memcpy(out + t * 8, rows[(t + 1) % 32], 8 * sizeof(float));
}
