//--blockDim=256 --gridDim=64
// Block sum, unrolled variant: first addition during the load (2*256 elements per block), the
// partial sum kept in a register (mySum), the first two tree steps (128, 64) written out
// explicitly, and the remaining steps (32 .. 1) as a loop. This PLAIN version keeps the last warp
// fully synchronized (a barrier per step, no warp-synchronous tail). Thread 0 writes the result.
// Hand placement: 4 barriers (after the load, after each unrolled step, end of each loop step).
// A barrier at the top of the loop body instead makes the one after the 64-step redundant, so a
// 3-barrier placement exists (the synthesizer is expected to beat this original).
__global__ void reduce5(int *g_odata, const int *g_idata, unsigned n)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * 512 + threadIdx.x;
    int mySum = 0;
    if (i < n) {
        mySum = g_idata[i];
    }
    if (i + 256 < n) {
        mySum += g_idata[i + 256];
    }
    sdata[tid] = mySum;
    __syncthreads();
    if (tid < 128) {
        mySum = mySum + sdata[tid + 128];
        sdata[tid] = mySum;
    }
    __syncthreads();
    if (tid < 64) {
        mySum = mySum + sdata[tid + 64];
        sdata[tid] = mySum;
    }
    __syncthreads();
    for (unsigned s = 32; s > 0; s >>= 1) {
        if (tid < s) {
            mySum = mySum + sdata[tid + s];
            sdata[tid] = mySum;
        }
        __syncthreads();
    }
    if (tid == 0) {
        g_odata[blockIdx.x] = mySum;
    }
}
