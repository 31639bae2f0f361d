// Breadth-first search, one kernel pass per level (Rodinia "bfs" style): the host sizes the grid
// from the node count with at most MAX_THREADS_PER_BLOCK threads per block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define MAX_THREADS_PER_BLOCK 512

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void bfs_level(const Node *nodes, const int *edges, bool *mask, bool *updating,
                          const bool *visited, int *cost, int no_of_nodes)
{
    __shared__ int local_cost[MAX_THREADS_PER_BLOCK];
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    local_cost[threadIdx.x] = 0;
    if (tid < no_of_nodes && mask[tid]) {
        mask[tid] = false;
        local_cost[threadIdx.x] = cost[tid] + 1;
        for (int i = nodes[tid].starting; i < nodes[tid].starting + nodes[tid].no_of_edges; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = local_cost[threadIdx.x];
                updating[id] = true;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int no_of_nodes = argc > 1 ? atoi(argv[1]) : 65536;
    int num_of_blocks = 1;
    int num_of_threads_per_block = no_of_nodes;
    if (no_of_nodes > MAX_THREADS_PER_BLOCK) {
        num_of_blocks = (int)((no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK);
        num_of_threads_per_block = MAX_THREADS_PER_BLOCK;
    }
    Node *d_nodes;
    int *d_edges, *d_cost;
    bool *d_mask, *d_updating, *d_visited;
    cudaMalloc(&d_nodes, sizeof(Node) * no_of_nodes);
    cudaMalloc(&d_edges, sizeof(int) * no_of_nodes * 8);
    cudaMalloc(&d_cost, sizeof(int) * no_of_nodes);
    cudaMalloc(&d_mask, sizeof(bool) * no_of_nodes);
    cudaMalloc(&d_updating, sizeof(bool) * no_of_nodes);
    cudaMalloc(&d_visited, sizeof(bool) * no_of_nodes);
    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(num_of_threads_per_block, 1, 1);
    bfs_level<<<grid, threads, 0>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, no_of_nodes);
    cudaDeviceSynchronize();
    return 0;
}
