//--blockDim=128 --gridDim=4
// Bitonic merge where the barrier was moved into the comparator branch.
__global__ void bitonicMerge(int *keys)
{
    __shared__ int s[128];
    unsigned t = threadIdx.x;
    s[t] = keys[blockIdx.x * 128 + t];
    __syncthreads();
    for (unsigned stride = 64; stride > 0; stride >>= 1) {
        unsigned p = t ^ stride;
        if (p > t) {
            int a = s[t], b = s[p];
            if (a > b) {
                s[t] = b;
                s[p] = a;
            }
            __syncthreads();
        }
    }
    keys[blockIdx.x * 128 + t] = s[t];
}
