//--blockDim=256 --gridDim=256
// Merge of histogramCount partial 256-bin histograms: block b owns bin b; its threads sum strided
// partial counts in registers, then fold them by a shared-memory tree.
typedef unsigned int uint;
#define HISTOGRAM256_BIN_COUNT 256
#define MERGE_THREADBLOCK_SIZE 256
#define UMUL(a, b) ((a) * (b))

__global__ void mergeHistogram256Kernel(uint *d_Histogram, const uint *d_PartialHistograms,
                                        uint histogramCount)
{
    __shared__ uint data[MERGE_THREADBLOCK_SIZE];

    uint sum = 0;
    for (uint i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE)
        sum += d_PartialHistograms[blockIdx.x + UMUL(i, HISTOGRAM256_BIN_COUNT)];
    data[threadIdx.x] = sum;

    for (uint stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride)
            data[threadIdx.x] += data[threadIdx.x + stride];
    }

    if (threadIdx.x == 0)
        d_Histogram[blockIdx.x] = data[0];
}
