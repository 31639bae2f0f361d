#define FULL 0xffffffffu
// Warp collectives exchange registers: no access, an unknown per-thread result (a fresh
// unknown `_lane` and `tid.x` among the opaque call's arguments), no ordering statement.
// Block barrier-reductions: the predicate, a barrier, a block-uniform unknown result.
__device__ float warp_sum(float v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

__global__ void collectives(const float *in, unsigned *out, int *flags) {
    int t = threadIdx.x;
    int lane = t & 31;
    float v = warp_sum(in[t]);
    float b = __shfl_sync(FULL, v, 0);
    float u = __shfl_up_sync(FULL, v, 1, 16);
    float x = __shfl_xor_sync(FULL, in[t + 1], 8);
    int old = __shfl(t, 3);
    unsigned m = __ballot_sync(FULL, v > 0.0f);
    int any = __any_sync(m, lane < 4), all = __all_sync(FULL, 1), uni = __uni_sync(FULL, t);
    unsigned act = __activemask();
    unsigned peers = __match_any_sync(act, t / 4);
    int same;
    unsigned who = __match_all_sync(FULL, t / 64, &same);
    unsigned s = __reduce_add_sync(FULL, (unsigned)t) + __reduce_or_sync(FULL, 1u);
    out[t] = m + any + all + uni + act + peers + same + who + s + old + (unsigned)(b + u + x);
    int n = __syncthreads_count(flags[t] != 0);
    if (__syncthreads_or(flags[t] > 1))
        out[t] = n;
    while (__syncthreads_and(flags[t] == 0))
        flags[t] = 1;
}
