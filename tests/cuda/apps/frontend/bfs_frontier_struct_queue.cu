// Queue-based BFS level expansion in Rodinia style: the current and next frontiers, the queue
// tail counter and the CSR graph come in structs passed by value. A thread per frontier vertex
// claims a slot of the next frontier with atomicAdd on the tail and marks visited vertices with
// atomicCAS, so every vertex is enqueued once.
#include <cuda_runtime.h>
#include <cstdio>

struct Graph {
    const int *offsets;
    const int *edges;
    int vertices;
};

struct Frontier {
    const int *cur;
    int *next;
    int *nextTail;
    int *level;
    int size;
    int depth;
};

__global__ void expandFrontier(Graph g, Frontier f)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= f.size)
        return;
    int v = f.cur[t];
    for (int e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
        int u = g.edges[e];
        if (atomicCAS(&f.level[u], -1, f.depth + 1) == -1) {
            int slot = atomicAdd(f.nextTail, 1);
            f.next[slot] = u;
        }
    }
}

int main()
{
    const int vertices = 1 << 18;
    Graph g;
    Frontier f;
    int *offsets, *edges, *a, *b, *tail, *level;
    cudaMalloc(&offsets, (vertices + 1) * sizeof(int));
    cudaMalloc(&edges, 8 * vertices * sizeof(int));
    cudaMalloc(&a, vertices * sizeof(int));
    cudaMalloc(&b, vertices * sizeof(int));
    cudaMalloc(&tail, sizeof(int));
    cudaMalloc(&level, vertices * sizeof(int));
    g.offsets = offsets;
    g.edges = edges;
    g.vertices = vertices;
    int size = 1;
    for (int depth = 0; size > 0; ++depth) {
        f.cur = depth % 2 ? b : a;
        f.next = depth % 2 ? a : b;
        f.nextTail = tail;
        f.level = level;
        f.size = size;
        f.depth = depth;
        cudaMemset(tail, 0, sizeof(int));
        dim3 block(256);
        dim3 grid((size + 255) / 256);
        expandFrontier<<<grid, block>>>(g, f);
        cudaMemcpy(&size, tail, sizeof(int), cudaMemcpyDeviceToHost);
    }
    printf("bfs done\n");
    return 0;
}
