// A shared stack used for both pushes and pops in one phase: odd threads pop (atomicSub), even
// threads push (atomicAdd). A pop and a push can return the same top, so two threads write the
// same slot of the result.
#include <cuda_runtime.h>

__global__ void push_pop(int *result, int *top)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int slot;
    if (t % 2 == 0)
        slot = atomicAdd(top, 1);
    else
        slot = atomicSub(top, 1);
    result[slot] = t;
}

int main()
{
    int *result, *top;
    cudaMalloc(&result, 1 << 20);
    cudaMalloc(&top, sizeof(int));
    push_pop<<<64, 128>>>(result, top);
    cudaDeviceSynchronize();
    return 0;
}
