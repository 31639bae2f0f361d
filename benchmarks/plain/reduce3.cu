//--blockDim=256 --gridDim=64
// Block sum with the first addition during the load: each block sums 2*blockDim elements; every
// thread loads two elements (blockDim apart) and stores their sum, then a sequential-addressing
// tree reduces the 256 partial sums. Thread 0 writes the block's sum.
// Classic placement: after the load and at the end of each step. A single barrier at the top of
// the loop body is also correct and cheaper (the synthesizer is expected to beat this original).
__global__ void reduce3(int *g_odata, const int *g_idata, unsigned n)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int mySum = 0;
    if (i < n) {
        mySum = g_idata[i];
    }
    if (i + blockDim.x < n) {
        mySum += g_idata[i + blockDim.x];
    }
    sdata[tid] = mySum;
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
