//--blockDim=128 --gridDim=64
// Counts negative values per block; the counter reset is not separated from the atomics.
__global__ void countNegatives(const float *x, unsigned *counts)
{
    __shared__ unsigned c;
    if (threadIdx.x == 0)
        c = 0;
    if (x[blockIdx.x * 128 + threadIdx.x] < 0.0f)
        atomicAdd(&c, 1u);
    __syncthreads();
    if (threadIdx.x == 0)
        counts[blockIdx.x] = c;
}
