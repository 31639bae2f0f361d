//--blockDim=128 --gridDim=16
// Work-efficient exclusive scan of 256 elements per block (up-sweep, clear, down-sweep).
#define NELEM 256

__global__ void prescan(float *g_odata, const float *g_idata)
{
    __shared__ float temp[NELEM];
    int thid = threadIdx.x;
    int base = blockIdx.x * NELEM;
    int offset = 1;
    temp[2 * thid] = g_idata[base + 2 * thid];
    temp[2 * thid + 1] = g_idata[base + 2 * thid + 1];
    for (int d = NELEM >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[NELEM - 1] = 0;
    for (int d = 1; d < NELEM; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    g_odata[base + 2 * thid] = temp[2 * thid];
    g_odata[base + 2 * thid + 1] = temp[2 * thid + 1];
}
