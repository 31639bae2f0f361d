// Level-synchronous BFS, one launch per level (the Rodinia / Harish-Narayanan style with an
// explicit frontier queue): each thread of the current frontier visits its neighbours and pushes
// newly discovered vertices on the next frontier with an atomic counter.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void bfs_expand(const int *row_ptr, const int *col_idx, const int *frontier,
                           int frontier_size, int *next_frontier, int *next_size,
                           int *level, int depth)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= frontier_size)
        return;
    int v = frontier[tid];
    for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
        int u = col_idx[e];
        if (atomicCAS(&level[u], -1, depth + 1) == -1) {
            int pos = atomicAdd(next_size, 1);
            next_frontier[pos] = u;
        }
    }
}

int main()
{
    const int V = 1 << 20, E = 1 << 24;
    int *row_ptr, *col_idx, *q0, *q1, *count, *level;
    cudaMalloc(&row_ptr, (V + 1) * sizeof(int));
    cudaMalloc(&col_idx, E * sizeof(int));
    cudaMalloc(&q0, V * sizeof(int));
    cudaMalloc(&q1, V * sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMalloc(&level, V * sizeof(int));
    int size = 1;
    for (int depth = 0; size > 0; ++depth) {
        cudaMemset(count, 0, sizeof(int));
        bfs_expand<<<(size + BLOCK - 1) / BLOCK, BLOCK>>>(row_ptr, col_idx, q0, size, q1, count,
                                                           level, depth);
        cudaMemcpy(&size, count, sizeof(int), cudaMemcpyDeviceToHost);
        int *t = q0; q0 = q1; q1 = t;
    }
    printf("done\n");
    return 0;
}
