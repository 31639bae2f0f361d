//--blockDim=128 --gridDim=16
// Stream compaction inside a block with warp ballots; the warp counts are read too early.
__global__ void compact(const int *in, int *out, int *blockCount)
{
    __shared__ int warpCount[4];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int v = in[blockIdx.x * 128 + t];
    unsigned mask = __ballot_sync(0xffffffffu, v != 0);
    if (lane == 0)
        warpCount[warp] = __popc(mask);
    int before = 0;
    for (int w = 0; w < warp; ++w)
        before += warpCount[w];
    int rank = before + __popc(mask & ((1u << lane) - 1u));
    if (v != 0)
        out[blockIdx.x * 128 + rank] = v;
    if (t == 127)
        blockCount[blockIdx.x] = before + __popc(mask);
}
