//--blockDim=256 --gridDim=16
// Batcher odd-even merge sort of SORT_SIZE keys per block in shared memory: for merge size p and
// distance k, thread a compares keys a and a + k when a starts a comparator of that step.
typedef unsigned int uint;
#define SORT_SIZE 256

// Does a comparator (a, a + k) exist in step (p, k) of the odd-even merge network? The low ends
// are the first k positions of every 2k block, shifted by k % p, that stay inside one 2p merge.
__device__ inline bool startsComparator(uint a, uint p, uint k)
{
    const uint j = k % p;
    if (a < j || a + k >= SORT_SIZE) return false;
    if (((a - j) / k) & 1) return false;
    return a / (2 * p) == (a + k) / (2 * p);
}

__device__ inline void compareExchange(uint *s, uint i, uint j)
{
    const uint a = s[i];
    const uint b = s[j];
    if (a > b) {
        s[i] = b;
        s[j] = a;
    }
}

__global__ void oddEvenMergeSortShared(uint *d_Keys)
{
    __shared__ uint s_key[SORT_SIZE];
    const uint tid = threadIdx.x;

    d_Keys += blockIdx.x * SORT_SIZE;
    s_key[tid] = d_Keys[tid];

    for (uint p = 1; p < SORT_SIZE; p <<= 1) {
        for (uint k = p; k > 0; k >>= 1) {
            __syncthreads();
            if (!startsComparator(tid, p, k)) continue;
            compareExchange(s_key, tid, tid + k);
        }
    }

    __syncthreads();
    d_Keys[tid] = s_key[tid];
}
