//--blockDim=128 --gridDim=32
// Each block adds its count to a global total with a plain read-modify-write.
__global__ void countPositives(const float *x, int *total)
{
    __shared__ int cnt;
    if (threadIdx.x == 0)
        cnt = 0;
    __syncthreads();
    if (x[blockIdx.x * 128 + threadIdx.x] > 0.0f)
        atomicAdd(&cnt, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        *total += cnt;
}
