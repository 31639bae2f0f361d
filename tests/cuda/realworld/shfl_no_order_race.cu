//--blockDim=128 --gridDim=16
// Warp-level transpose through shared memory: each lane writes its row, a shuffle "syncs"
// the warp, then each lane reads a column. A shuffle exchanges registers only: it does not
// order the shared-memory accesses of the lanes (that takes __syncwarp()).
__global__ void warpTranspose(const float *in, float *out)
{
    __shared__ float tile[4][32][33];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int base = (blockIdx.x * 4 + w) * 32 * 32;
    for (int j = 0; j < 32; ++j)
        tile[w][lane][j] = in[base + lane * 32 + j];
    float token = __shfl_sync(0xffffffff, (float)lane, 0);
    for (int j = 0; j < 32; ++j)
        out[base + j * 32 + lane] = tile[w][j][lane] + token * 0.0f;
}
