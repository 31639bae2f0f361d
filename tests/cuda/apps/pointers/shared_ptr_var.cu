//--blockDim=64 --gridDim=4
// A `__shared__` pointer variable: thread 0 publishes the block's base, the others use it
// after the barrier.
__global__ void per_block(float *data)
{
    __shared__ float *base;
    if (threadIdx.x == 0)
        base = data + blockIdx.x * 64;
    __syncthreads();
    base[threadIdx.x] *= 2.0f;
}
