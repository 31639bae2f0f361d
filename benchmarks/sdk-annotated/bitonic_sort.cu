//--blockDim=256 --gridDim=16
// Bitonic sort of SORT_SIZE keys per block in shared memory, one key per thread: merge stages of
// doubling size, each a series of compare-exchange steps of halving stride (partner = tid ^ stride).
typedef unsigned int uint;
#define SORT_SIZE 256

// Orders the pair: a <= b when ascending, a >= b otherwise.
__device__ inline void compareExchange(uint &a, uint &b, bool ascending)
{
    if ((a > b) == ascending) {
        const uint t = a;
        a = b;
        b = t;
    }
}

__global__ void bitonicSortShared(uint *d_Keys)
{
    __shared__ uint s_key[SORT_SIZE];
    const uint tid = threadIdx.x;

    d_Keys += blockIdx.x * SORT_SIZE;
    s_key[tid] = d_Keys[tid];

    for (uint size = 2; size <= SORT_SIZE; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            const uint partner = tid ^ stride;
            // The lower thread of each pair does the exchange; the direction alternates per block
            // of `size` keys (the last stage, size == SORT_SIZE, is ascending everywhere).
            if (partner > tid)
                compareExchange(s_key[tid], s_key[partner], (tid & size) == 0);
        }
    }

    __syncthreads();
    d_Keys[tid] = s_key[tid];
}
