//--blockDim=128 --gridDim=16
// Per-block smoothing rounds with a data-dependent but block-uniform trip count: thread 0 reads
// the block's round count into shared memory; all threads loop on that shared value, so the
// barriers inside the loop are reached by the whole block (read, barrier, write, barrier).
#define BLOCK_SIZE 128
#define MAX_ROUNDS 8

__global__ void smoothRounds(float *d_data, const int *d_rounds)
{
    __shared__ float s_val[BLOCK_SIZE];
    __shared__ int s_rounds;
    const int tid = threadIdx.x;

    d_data += blockIdx.x * BLOCK_SIZE;
    if (tid == 0)
        s_rounds = min(d_rounds[blockIdx.x], MAX_ROUNDS);
    s_val[tid] = d_data[tid];
    __syncthreads();

    for (int r = 0; r < s_rounds; r++) {
        const float left = s_val[(tid + BLOCK_SIZE - 1) % BLOCK_SIZE];
        const float right = s_val[(tid + 1) % BLOCK_SIZE];
        const float v = 0.25f * (left + 2.0f * s_val[tid] + right);
        __syncthreads();
        s_val[tid] = v;
        __syncthreads();
    }

    d_data[tid] = s_val[tid];
}
