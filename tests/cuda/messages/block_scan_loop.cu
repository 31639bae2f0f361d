// Hillis-Steele inclusive scan of one block. Bug: no barrier inside the loop, so the read of
// a neighbour in one round can meet its write of the next round.
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockScan(int *data)
{
    __shared__ int buf[BLOCK];
    int t = threadIdx.x;
    buf[t] = data[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        int add = t >= offset ? buf[t - offset] : 0;
        buf[t] += add;
    }
    __syncthreads();
    data[blockIdx.x * BLOCK + t] = buf[t];
}

int main()
{
    int *data;
    cudaMalloc(&data, 1024 * BLOCK * sizeof(int));
    blockScan<<<1024, BLOCK>>>(data);
    cudaDeviceSynchronize();
    cudaFree(data);
    return 0;
}
