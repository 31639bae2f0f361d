//--blockDim=256 --gridDim=16
// Per-word bit statistics: population count, lowest set bit, leading zeros, bit reverse.
__global__ void bitStats(const unsigned *words, int4 *stats)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned w = words[i];
    int4 r;
    r.x = __popc(w);
    r.y = __ffs(w);
    r.z = __clz(w);
    r.w = (int)(__brev(w) & 0xff);
    stats[i] = r;
}
