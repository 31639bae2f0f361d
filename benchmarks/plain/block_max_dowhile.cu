//--blockDim=128 --gridDim=32
// Maximum of each 128-element block, written with a do-while tree loop (s = 64, 32, ..., 1):
// the barrier at the top of each step orders the load / previous step before the reads.
// Thread 0 writes the block maximum.
__global__ void block_max_dowhile(int *out, const int *in)
{
    __shared__ int m[128];
    int tid = threadIdx.x;
    m[tid] = in[(int)blockIdx.x * 128 + tid];
    int s = 64;
    do {
        __syncthreads();
        if (tid < s) {
            m[tid] = max(m[tid], m[tid + s]);
        }
        s >>= 1;
    } while (s > 0);
    if (tid == 0) {
        out[blockIdx.x] = m[0];
    }
}
