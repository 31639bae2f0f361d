//--blockDim=256 --gridDim=32
// 256-bin byte histogram: each block counts its grid-stride share of the data into a shared
// histogram with shared-memory atomics, then adds its non-zero bins to the global histogram.
typedef unsigned int uint;
typedef unsigned char uchar;
#define HIST_BINS 256
#define THREADBLOCK_SIZE 256
#define UMUL(a, b) ((a) * (b))

__global__ void histogramShared(uint *d_Histogram, const uchar *d_Data, uint dataCount)
{
    __shared__ uint s_Hist[HIST_BINS];

    for (uint bin = threadIdx.x; bin < HIST_BINS; bin += THREADBLOCK_SIZE)
        s_Hist[bin] = 0;
    __syncthreads();

    const uint stride = UMUL(blockDim.x, gridDim.x);
    for (uint pos = UMUL(blockIdx.x, blockDim.x) + threadIdx.x; pos < dataCount; pos += stride)
        atomicAdd(&s_Hist[d_Data[pos]], 1u);
    __syncthreads();

    for (uint bin = threadIdx.x; bin < HIST_BINS; bin += THREADBLOCK_SIZE) {
        const uint count = s_Hist[bin];
        if (count == 0) continue;
        atomicAdd(&d_Histogram[bin], count);
    }
}
