#include <cuda_runtime.h>
#include <stdio.h>

// Block-wise exclusive prefix of flags into dynamic shared memory; a barrier is missing
// between the serial scan and its use.
__global__ void compactOffsets(const int *flags, int *offsets)
{
    extern __shared__ int sflags[];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    sflags[t] = flags[g];
    __syncthreads();
    if (t == 0) {
        int run = 0;
        for (int k = 0; k < blockDim.x; ++k) {
            int f = sflags[k];
            sflags[k] = run;
            run += f;
        }
    }
    offsets[g] = sflags[t];
}

int main()
{
    int *flags, *offsets;
    cudaMalloc(&flags, 64 * 256 * sizeof(int));
    cudaMalloc(&offsets, 64 * 256 * sizeof(int));
    compactOffsets<<<64, 256, 256 * sizeof(int)>>>(flags, offsets);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
