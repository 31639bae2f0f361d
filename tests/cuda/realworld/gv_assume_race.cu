//--blockDim=128 --gridDim=32
// Shift by one element through shared memory; thread 0 loads the halo element.
__global__ void shiftLeft(const int *a, int *out, int n)
{
    __assume(n == 128 * 32);
    __shared__ int s[129];
    int g = blockIdx.x * 128 + threadIdx.x;
    s[threadIdx.x] = a[g];
    if (threadIdx.x == 0)
        s[128] = (blockIdx.x * 128 + 128 < n) ? a[blockIdx.x * 128 + 128] : 0;
    out[g] = s[threadIdx.x + 1];
}
