//--blockDim=256 --gridDim=64
// Third phase of a large scan: add each block's scanned offset to its elements.
__global__ void uniformAdd(unsigned *data, const unsigned *blockOffsets, int n)
{
    __shared__ unsigned offset;
    if (threadIdx.x == 0)
        offset = blockOffsets[blockIdx.x];
    __syncthreads();
    unsigned i = blockIdx.x * 512 + threadIdx.x;
    if (i < n)
        data[i] += offset;
    if (i + 256 < n)
        data[i + 256] += offset;
}
