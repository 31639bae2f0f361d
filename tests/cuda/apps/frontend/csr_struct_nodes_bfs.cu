// Rodinia-style BFS expansion over a CSR graph whose vertices are an array of structs in
// global memory (`nodes[v].start`, `nodes[v].degree`) and whose per-level settings come in a
// plain struct passed by value. Neighbours are relaxed with atomicMin.
#include <climits>
#include <cuda_runtime.h>

struct Node {
    int start;
    int degree;
};

struct Level {
    int depth;
    int vertices;
};

__global__ void expandLevel(const Node *nodes, const int *edges, const int *dist, int *next_dist, Level lv)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= lv.vertices || dist[v] != lv.depth)
        return;
    Node nd = nodes[v];
    for (int e = nd.start; e < nd.start + nd.degree; ++e) {
        int u = edges[e];
        atomicMin(&next_dist[u], lv.depth + 1);
    }
}

int main()
{
    const int vertices = 1 << 16;
    Node *nodes;
    int *edges, *dist, *next_dist;
    cudaMalloc(&nodes, vertices * sizeof(Node));
    cudaMalloc(&edges, 8 * vertices * sizeof(int));
    cudaMalloc(&dist, vertices * sizeof(int));
    cudaMalloc(&next_dist, vertices * sizeof(int));
    for (int depth = 0; depth < 16; ++depth) {
        Level lv = {depth, vertices};
        expandLevel<<<vertices / 256, 256>>>(nodes, edges, dist, next_dist, lv);
        cudaMemcpy(dist, next_dist, vertices * sizeof(int), cudaMemcpyDeviceToDevice);
    }
    cudaDeviceSynchronize();
    return 0;
}
