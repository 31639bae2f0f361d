//--blockDim=256 --gridDim=16
// Sorts each 256-element block of keys ascending in shared memory with a bitonic sorting network.
// Stage k (2, 4, ..., 256) merges bitonic runs of length k; in its sub-step j (k/2, ..., 1) the
// thread with the lower index of each pair (tid, tid ^ j) compares and, if needed, swaps the pair;
// runs with (tid & k) == 0 are sorted ascending, the others descending. Pairs of one sub-step are
// disjoint, so one barrier per sub-step (before it) plus one before the final stores suffice.
__global__ void bitonic_sort(int *keys)
{
    __shared__ int s[256];
    unsigned tid = threadIdx.x;
    unsigned base = blockIdx.x * 256;
    s[tid] = keys[base + tid];
    for (unsigned k = 2; k <= 256; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            unsigned partner = tid ^ j;
            if (partner > tid) {
                int a = s[tid];
                int b = s[partner];
                if (((tid & k) == 0 && a > b) || ((tid & k) != 0 && a < b)) {
                    s[tid] = b;
                    s[partner] = a;
                }
            }
        }
    }
    __syncthreads();
    keys[base + tid] = s[tid];
}
