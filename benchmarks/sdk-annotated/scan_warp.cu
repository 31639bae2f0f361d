//--blockDim=256 --gridDim=32 --warp-sync=32
// Inclusive block scan from warp scans: each warp scans its 32 values in lock step (volatile
// shared memory, no barriers), the warp totals are scanned by warp 0, and every thread adds the
// exclusive total of the warps before its own.
typedef unsigned int uint;
#define THREADBLOCK_SIZE 256
#define LOG2_WARP_SIZE 5
#define WARP_SIZE (1 << LOG2_WARP_SIZE)
#define WARP_COUNT (THREADBLOCK_SIZE / WARP_SIZE)

// Inclusive scan of one value per lane across the calling warp. s_Data: 2 * WARP_SIZE entries per
// warp; the lower half is zeroed so that lane - offset < 0 reads a zero, not another warp's data.
__device__ inline uint warpScanInclusive(uint idata, volatile uint *s_Data)
{
    const uint lane = threadIdx.x & (WARP_SIZE - 1);
    volatile uint *w = s_Data + (threadIdx.x >> LOG2_WARP_SIZE) * 2 * WARP_SIZE;
    const uint pos = WARP_SIZE + lane;
    w[lane] = 0;
    w[pos] = idata;
    for (uint offset = 1; offset < WARP_SIZE; offset <<= 1) {
        const uint t = w[pos - offset];
        w[pos] = idata = idata + t;
    }
    return idata;
}

__global__ void scanWarpBlock(uint *d_Dst, const uint *d_Src)
{
    __shared__ uint s_Data[2 * THREADBLOCK_SIZE];
    __shared__ uint s_Totals[WARP_COUNT];

    const uint pos = blockIdx.x * THREADBLOCK_SIZE + threadIdx.x;
    const uint idata = d_Src[pos];
    const uint warpResult = warpScanInclusive(idata, s_Data);

    // The last lane of each warp holds its warp's total.
    if ((threadIdx.x & (WARP_SIZE - 1)) == WARP_SIZE - 1)
        s_Totals[threadIdx.x >> LOG2_WARP_SIZE] = warpResult;

    __syncthreads();

    // Warp 0 turns the totals into exclusive prefixes (reusing its own s_Data region).
    if (threadIdx.x < WARP_SIZE) {
        const uint total = (threadIdx.x < WARP_COUNT) ? s_Totals[threadIdx.x] : 0;
        const uint inclusive = warpScanInclusive(total, s_Data);
        if (threadIdx.x < WARP_COUNT)
            s_Totals[threadIdx.x] = inclusive - total;
    }

    __syncthreads();

    d_Dst[pos] = warpResult + s_Totals[threadIdx.x >> LOG2_WARP_SIZE];
}
