//--blockDim=128
// Each block reverses its tile through shared memory (a block-level race: the barrier is
// missing), and thread 0 of every block bumps one global counter (a race between blocks that no
// barrier can fix: it needs an atomicAdd).
__global__ void reverse_and_count(const int *in, int *out, int *hits) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int base = blockIdx.x * 128;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[127 - t];
    if (t == 0) {
        hits[0] = hits[0] + 1;
    }
}
