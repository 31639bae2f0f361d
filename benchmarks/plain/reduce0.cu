//--blockDim=256 --gridDim=64
// Block sum, interleaved addressing with a divergent modulo test: in step s, every thread whose id
// is a multiple of 2*s adds the element s to its right. Thread 0 writes the block's sum.
// Hand placement (the classic one): a barrier after the load and one at the end of each step.
// Neither can be removed alone, but a single barrier at the top of the loop body is also correct
// and cheaper (cost 100 instead of 1 + 100): the synthesizer is expected to beat this original.
__global__ void reduce0(int *g_odata, const int *g_idata)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
