//--blockDim=256 --gridDim=64
// Block sum, sequential addressing: the active half of the threads adds the upper half of the
// remaining range onto the lower half (s = blockDim/2, blockDim/4, ..., 1). Thread 0 writes the sum.
// Classic placement: after the load and at the end of each step. A single barrier at the top of
// the loop body is also correct and cheaper (the synthesizer is expected to beat this original).
__global__ void reduce2(int *g_odata, const int *g_idata)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        g_odata[blockIdx.x] = sdata[0];
    }
}
