// A shift-left of a shared buffer written as a braceless loop body over rounds: every thread
// moves its right neighbour's value into its own slot in one statement.
#include <cuda_runtime.h>

__global__ void shift_rounds(int *buf, int rounds)
{
    __shared__ int q[257];
    int t = threadIdx.x;
    q[t] = buf[t];
    if (t == 0)
        q[256] = 0;
    __syncthreads();
    for (int r = 0; r < rounds; r++)
        q[t] = q[t + 1] * 2;
    __syncthreads();
    buf[t] = q[t];
}

int main()
{
    int *b;
    cudaMalloc(&b, 256 * sizeof(int));
    shift_rounds<<<1, 256>>>(b, 4);
    cudaDeviceSynchronize();
    return 0;
}
