//--blockDim=128 --gridDim=8
// One split step of a block-local radix sort: count zeros of the current bit with a serial scan
// by thread 0, then scatter. The barrier before the scatter is missing.
__global__ void splitByBit(unsigned *keys, int bit)
{
    __shared__ unsigned s[128];
    __shared__ unsigned falsesBefore[128];
    __shared__ unsigned totalFalses;
    int t = threadIdx.x;
    unsigned k = keys[blockIdx.x * 128 + t];
    unsigned isFalse = ((k >> bit) & 1u) ^ 1u;
    falsesBefore[t] = isFalse;
    __syncthreads();
    if (t == 0) {
        unsigned run = 0;
        for (int j = 0; j < 128; ++j) {
            unsigned f = falsesBefore[j];
            falsesBefore[j] = run;
            run += f;
        }
        totalFalses = run;
    }
    unsigned dest = isFalse ? falsesBefore[t] : t - falsesBefore[t] + totalFalses;
    s[dest] = k;
    __syncthreads();
    keys[blockIdx.x * 128 + t] = s[t];
}
