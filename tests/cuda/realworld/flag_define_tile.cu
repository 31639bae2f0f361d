//--blockDim=128 --gridDim=4 -DTILE=128
// The tile size comes from the GPUVerify header's -D flag.
__global__ void rotateBlock(int *a)
{
    __shared__ int s[TILE];
    int g = blockIdx.x * TILE + threadIdx.x;
    s[threadIdx.x] = a[g];
    __syncthreads();
    a[g] = s[(threadIdx.x + 1) % TILE];
}
