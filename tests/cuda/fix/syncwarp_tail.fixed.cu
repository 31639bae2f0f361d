//--blockDim=256 --gridDim=4
#define FULL_MASK 0xffffffff
// A block reduction: a tree over shared memory down to 64 partial sums, then warp 0 finishes
// with warp-synchronous steps ordered by __syncwarp(). The tree lacks its barriers; the tail
// needs none (and a __syncthreads() there, under t < 32, would diverge).
__global__ void reduce_syncwarp(const int *in, int *out) {
    __shared__ int s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    for (unsigned int d = 128; d > 32; d >>= 1) {
        __syncthreads();
        if (t < d)
            s[t] += s[t + d];
    }
    __syncthreads();
    if (t < 32) {
        int v = s[t] + s[t + 32];
        for (int off = 16; off > 0; off >>= 1) {
            __syncwarp();
            s[t] = v;
            __syncwarp(FULL_MASK);
            v += s[t + off];
        }
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
