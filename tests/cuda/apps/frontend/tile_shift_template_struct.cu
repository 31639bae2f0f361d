// N-body style tile staging, generic over the element type: the same kernel template moves
// particles (a struct of four floats) in one simulation and packed float4 positions in another.
// Each block stages a tile in shared memory and every thread takes its right neighbour's element.
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
    float x, y, z;
    float mass;
};

template <typename T, int TILE>
__global__ void shiftTile(const T *items, T *shifted, int n)
{
    __shared__ T tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n)
        tile[threadIdx.x] = items[i];
    __syncthreads();
    T right = tile[(threadIdx.x + 1) % TILE];
    if (i < n)
        shifted[i] = right;
}

int main()
{
    const int n = 1 << 16;
    Particle *p, *q;
    float4 *a, *b;
    cudaMalloc(&p, n * sizeof(Particle));
    cudaMalloc(&q, n * sizeof(Particle));
    cudaMalloc(&a, n * sizeof(float4));
    cudaMalloc(&b, n * sizeof(float4));
    shiftTile<Particle, 128><<<n / 128, 128>>>(p, q, n);
    shiftTile<float4, 128><<<n / 128, 128>>>(a, b, n);
    cudaDeviceSynchronize();
    printf("ok\n");
    return 0;
}
