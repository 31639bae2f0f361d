// Blelloch exclusive scan with bank-conflict-free padding (the GPU Gems 3 chapter 39 layout):
// every index gets an extra slot per 32 elements, so the tile of 512 floats needs 528 words.
#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
#define THREADS 256
#define TILE (2 * THREADS)

__global__ void prescan_padded(float *g_odata, const float *g_idata)
{
    __shared__ float temp[TILE + TILE / NUM_BANKS];
    int thid = threadIdx.x;
    int base = blockIdx.x * TILE;
    int ai = thid;
    int bi = thid + TILE / 2;
    temp[ai + CONFLICT_FREE_OFFSET(ai)] = g_idata[base + ai];
    temp[bi + CONFLICT_FREE_OFFSET(bi)] = g_idata[base + bi];

    int offset = 1;
    for (int d = TILE >> 1; d > 0; d >>= 1) {
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
    if (thid == 0)
        temp[TILE - 1 + CONFLICT_FREE_OFFSET(TILE - 1)] = 0.0f;
    for (int d = 1; d < TILE; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    g_odata[base + ai] = temp[ai + CONFLICT_FREE_OFFSET(ai)];
    g_odata[base + bi] = temp[bi + CONFLICT_FREE_OFFSET(bi)];
}

int main()
{
    const int blocks = 1024;
    float *in, *out;
    cudaMalloc(&in, blocks * TILE * sizeof(float));
    cudaMalloc(&out, blocks * TILE * sizeof(float));
    prescan_padded<<<blocks, THREADS>>>(out, in);
    cudaDeviceSynchronize();
    return 0;
}
