//--blockDim=256 --gridDim=64
// Block sum, interleaved addressing with a strided index: in step s, the first blockDim/(2*s)
// threads each add sdata[index + s] into sdata[index], index = 2*s*tid (no divergent modulo).
// Thread 0 writes the block's sum. Classic placement: after the load and at the end of each step.
__global__ void reduce1(int *g_odata, const int *g_idata)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x) {
            sdata[index] += sdata[index + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
