//--blockDim=64 --gridDim=16
// Odd-even transposition sort of 128 keys per block (2 keys per thread), with a single barrier
// per round placed before the compare.
__global__ void oddEvenSort(int *keys)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[2 * t] = keys[blockIdx.x * 128 + 2 * t];
    s[2 * t + 1] = keys[blockIdx.x * 128 + 2 * t + 1];
    for (int round = 0; round < 128; ++round) {
        __syncthreads();
        int i = 2 * t + (round & 1);
        if (i + 1 < 128) {
            int a = s[i], b = s[i + 1];
            if (a > b) {
                s[i] = b;
                s[i + 1] = a;
            }
        }
    }
    keys[blockIdx.x * 128 + 2 * t] = s[2 * t];
    keys[blockIdx.x * 128 + 2 * t + 1] = s[2 * t + 1];
}
