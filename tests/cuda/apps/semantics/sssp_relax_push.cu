// Data-driven Bellman-Ford (SSSP) relaxation over a worklist: every thread takes worklist items
// with a grid-stride loop, relaxes the outgoing edges with atomicMin and pushes improved vertices
// on the output worklist through an atomic tail counter (Gunrock / LonestarGPU style).
#include <cuda_runtime.h>

__global__ void relax(const int *row_ptr, const int *adj, const int *weight, int *dist,
                      const int *in_wl, int in_len, int *out_wl, unsigned int *out_tail)
{
    for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < in_len; w += blockDim.x * gridDim.x) {
        int v = in_wl[w];
        int dv = dist[v];
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
            int u = adj[e];
            int nd = dv + weight[e];
            if (nd < atomicMin(&dist[u], nd)) {
                unsigned int at = atomicAdd(out_tail, 1);
                out_wl[at] = u;
            }
        }
    }
}

int main()
{
    int V = 1 << 20, E = 1 << 23;
    int *rp, *adj, *wt, *dist, *wl0, *wl1;
    unsigned int *tail;
    cudaMalloc(&rp, (V + 1) * sizeof(int));
    cudaMalloc(&adj, E * sizeof(int));
    cudaMalloc(&wt, E * sizeof(int));
    cudaMalloc(&dist, V * sizeof(int));
    cudaMalloc(&wl0, E * sizeof(int));
    cudaMalloc(&wl1, E * sizeof(int));
    cudaMalloc(&tail, sizeof(unsigned int));
    unsigned int len = 1;
    while (len > 0) {
        cudaMemset(tail, 0, sizeof(unsigned int));
        relax<<<512, 128>>>(rp, adj, wt, dist, wl0, len, wl1, tail);
        cudaMemcpy(&len, tail, sizeof(unsigned int), cudaMemcpyDeviceToHost);
        int *t = wl0; wl0 = wl1; wl1 = t;
    }
    return 0;
}
