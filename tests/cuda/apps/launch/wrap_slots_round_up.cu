// Per-thread slots of a small ring: the ring must have at least one slot per thread of the
// block, so the host doubles the size the user asked for until it does. Thread t writes slot
// t % slots.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define THREADS 256

__global__ void fill_ring(int *ring, int *out, int slots)
{
    ring[threadIdx.x % slots] = threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = slots;
}

int main(int argc, char **argv)
{
    int slots = argc > 1 ? atoi(argv[1]) : 100;
    if (slots <= 0) {
        fprintf(stderr, "need a positive ring size\n");
        return 1;
    }
    while (slots < THREADS)
        slots *= 2;
    int *ring, *out;
    cudaMalloc(&ring, slots * sizeof(int));
    cudaMalloc(&out, THREADS * sizeof(int));
    fill_ring<<<1, THREADS>>>(ring, out, slots);
    cudaDeviceSynchronize();
    printf("ring of %d slots\n", slots);
    return 0;
}
