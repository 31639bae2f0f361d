//--blockDim=128 --gridDim=32
// Stream-compaction ranks over four tiles per block: an inclusive warp scan of the keep flags
// by __shfl_up_sync, warp totals through shared memory (ordered by __syncthreads_count, which
// also counts the kept elements of the tile), a ballot to skip empty warps. The next tile
// overwrites the warp totals while slower warps may still read them: a barrier is missing at
// the end of the tile loop.
__global__ void compact_ranks(const int *in, int *rank, int *blockCount) {
    __shared__ int warpSums[4];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int base = 0;
    for (int tile = 0; tile < 4; ++tile) {
        __syncthreads();
        int g = (blockIdx.x * 4 + tile) * 128 + t;
        int keep = in[g] != 0;
        int incl = keep;
        if (__ballot_sync(0xffffffffu, keep) != 0) {
            for (int d = 1; d < 32; d <<= 1) {
                int up = __shfl_up_sync(0xffffffffu, incl, d);
                if (lane >= d)
                    incl += up;
            }
        }
        if (lane == 31)
            warpSums[w] = incl;
        int count = __syncthreads_count(keep);
        int before = base;
        for (int i = 0; i < w; ++i)
            before += warpSums[i];
        rank[g] = keep ? before + incl - 1 : -1;
        base += count;
    }
    if (t == 0)
        blockCount[blockIdx.x] = base;
}
