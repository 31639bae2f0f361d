//--blockDim=256 --gridDim=64
// Block sum with a grid-stride accumulation loop: each thread first adds up many elements
// (two per trip, 256 apart, advancing by 512*gridDim), so any n is handled by a fixed grid; the
// 256 register sums are then combined as in reduce5 (two unrolled tree steps, then a loop, all
// fully synchronized). Thread 0 writes the block's partial sum.
// Hand placement: 4 barriers; a 3-barrier placement exists (barrier at the top of the loop body
// makes the one after the 64-step redundant), so the synthesizer is expected to beat this original.
__global__ void reduce6(int *g_odata, const int *g_idata, unsigned n)
{
    __shared__ int sdata[256];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * 512 + threadIdx.x;
    unsigned gridSize = 512 * gridDim.x;
    int mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (i + 256 < n) {
            mySum += g_idata[i + 256];
        }
        i += gridSize;
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
