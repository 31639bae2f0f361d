//--blockDim=128 --gridDim=32
// Exclusive block scan of 2*blockDim.x elements, Blelloch work-efficient: up-sweep (reduce) tree,
// clear the root (saved as the block total), down-sweep tree; shared indices padded by one slot
// per NUM_BANKS elements to avoid bank conflicts.
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#define SCAN_ELEMENTS 256

__global__ void scanBlelloch(float *g_odata, const float *g_idata, float *g_blockSums)
{
    __shared__ float temp[SCAN_ELEMENTS + SCAN_ELEMENTS / NUM_BANKS];

    const int thid = threadIdx.x;
    const int base = blockIdx.x * SCAN_ELEMENTS;
    const int ai = thid;
    const int bi = thid + SCAN_ELEMENTS / 2;
    const int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    const int bankOffsetB = CONFLICT_FREE_OFFSET(bi);

    temp[ai + bankOffsetA] = g_idata[base + ai];
    temp[bi + bankOffsetB] = g_idata[base + bi];

    int offset = 1;
    for (int d = SCAN_ELEMENTS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }

    if (thid == 0) {
        const int last = SCAN_ELEMENTS - 1 + CONFLICT_FREE_OFFSET(SCAN_ELEMENTS - 1);
        g_blockSums[blockIdx.x] = temp[last];
        temp[last] = 0.0f;
    }

    for (int d = 1; d < SCAN_ELEMENTS; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            const float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();

    g_odata[base + ai] = temp[ai + bankOffsetA];
    g_odata[base + bi] = temp[bi + bankOffsetB];
}
