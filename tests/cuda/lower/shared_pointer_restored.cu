// A `__shared__` pointer read after one store and given another value later: the read cannot take
// the one stored value, so the kernel is lowered again reading it from memory.
__global__ void k(float *data, float *other)
{
    __shared__ float *base;
    if (threadIdx.x == 0) base = data + blockIdx.x * 64;
    __syncthreads();
    base[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) base = data + 256 + blockIdx.x;
    __syncthreads();
    base[threadIdx.x] = 2.0f;
}
