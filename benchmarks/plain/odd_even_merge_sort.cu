//--blockDim=256 --gridDim=16
// Sorts each 256-element block of keys ascending with Batcher's odd-even merge sort network.
// For p = 1, 2, ..., 128 and k = p, p/2, ..., 1 the network compares elements a and a + k for every
// a with a >= k mod p, (a - k mod p) mod 2k < k, and a, a + k in the same run of length 2p. Each
// element is the lower end of at most one comparator per (p, k) layer; that thread does the
// compare-exchange. One barrier before each layer and one before the final stores.
__global__ void odd_even_merge_sort(int *keys)
{
    __shared__ int s[256];
    int tid = threadIdx.x;
    int base = (int)blockIdx.x * 256;
    s[tid] = keys[base + tid];
    for (int p = 1; p < 256; p <<= 1) {
        for (int k = p; k > 0; k >>= 1) {
            __syncthreads();
            int r = k & (p - 1);
            if (tid >= r && ((tid - r) & (2 * k - 1)) < k && tid + k < 256 && tid / (2 * p) == (tid + k) / (2 * p)) {
                int a = s[tid];
                int b = s[tid + k];
                if (a > b) {
                    s[tid] = b;
                    s[tid + k] = a;
                }
            }
        }
    }
    __syncthreads();
    keys[base + tid] = s[tid];
}
