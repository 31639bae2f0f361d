// Graph relaxation over a shared worklist, in the style of data-driven SSSP codes: every thread
// pops vertex slots with `while (pop(head, size, &slot))` — a device function in the loop condition,
// taking the address of a local for its result — relaxes the out-edges of the vertex from the
// previous round's distances into the next round's with atomicMin, counts its pops, and the
// block sums the counts after a barrier.
#include <cuda_runtime.h>
#include <cstdio>

#define BLOCK 128

// Takes the next slot of the worklist; false when it is exhausted.
__device__ bool pop(int *head, int size, int *slot)
{
    int at = atomicAdd(head, 1);
    if (at >= size) {
        return false;
    }
    *slot = at;
    return true;
}

__global__ void relaxWorklist(const int *items, int *head, int size, const int *offsets,
                              const int *edges, const int *weights, const int *distOld, int *distNew,
                              int *popsPerBlock)
{
    __shared__ int s_pops[BLOCK];
    int slot;
    int pops = 0;
    while (pop(head, size, &slot)) {
        int v = items[slot];
        int dv = distOld[v];
        for (int e = offsets[v]; e < offsets[v + 1]; ++e) {
            atomicMin(&distNew[edges[e]], dv + weights[e]);
        }
        pops++;
    }
    s_pops[threadIdx.x] = pops;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int i = 0; i < BLOCK; ++i) {
            total += s_pops[i];
        }
        popsPerBlock[blockIdx.x] = total;
    }
}

int main()
{
    const int n = 1 << 16;
    int *items, *head, *offsets, *edges, *weights, *distOld, *distNew, *pops;
    cudaMalloc(&items, n * sizeof(int));
    cudaMalloc(&head, sizeof(int));
    cudaMalloc(&offsets, (n + 1) * sizeof(int));
    cudaMalloc(&edges, 8 * n * sizeof(int));
    cudaMalloc(&weights, 8 * n * sizeof(int));
    cudaMalloc(&distOld, n * sizeof(int));
    cudaMalloc(&distNew, n * sizeof(int));
    dim3 block(BLOCK);
    dim3 grid(64);
    cudaMalloc(&pops, grid.x * sizeof(int));
    cudaMemset(head, 0, sizeof(int));
    relaxWorklist<<<grid, block>>>(items, head, n, offsets, edges, weights, distOld, distNew, pops);
    cudaDeviceSynchronize();
    printf("relaxed\n");
    return 0;
}
