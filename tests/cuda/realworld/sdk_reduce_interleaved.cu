//--blockDim=256 --gridDim=64
// Reduction #1 of the classic optimization series: interleaved addressing with a strided
// index, no divergent branch by thread id parity.
__global__ void reduceInterleaved(int *g_idata, int *g_odata)
{
    __shared__ int sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
