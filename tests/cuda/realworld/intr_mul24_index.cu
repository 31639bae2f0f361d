//--blockDim=128 --gridDim=64
// Old SDK idiom: 24-bit multiplies for the global index.
#define IMUL(a, b) __mul24(a, b)

__global__ void square(float *d)
{
    const int i = IMUL(blockIdx.x, blockDim.x) + threadIdx.x;
    const unsigned j = __umul24(blockIdx.x, 128u) + threadIdx.x;
    float v = d[i];
    d[j] = v * v;
}
