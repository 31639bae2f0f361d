// Data-driven BFS over a 2D grid graph, double-buffered worklists, grid-stride loop
// over the input worklist.
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cuda_runtime.h>

const int ThreadsPerBlock = 512;
#define WS 32

struct ECLgraph {
  int nodes;
  int edges;
  int* nindex;
  int* nlist;
  int* eweight;
};

static void CheckCuda(const int line)
{
  cudaError_t e = cudaGetLastError();
  if (cudaSuccess != e) {
    fprintf(stderr, "CUDA error %d on line %d: %s\n", e, line, cudaGetErrorString(e));
    exit(-1);
  }
}

static ECLgraph makeGrid(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 4 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int v = 0; v < g.nodes; v++) {
    const int r = v / w;
    const int c = v % w;
    g.nindex[v] = e;
    if (r > 0) g.nlist[e++] = v - w;
    if (c > 0) g.nlist[e++] = v - 1;
    if (c + 1 < w) g.nlist[e++] = v + 1;
    if (r + 1 < h) g.nlist[e++] = v + w;
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __global__ void bfs_kernel(const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ level, const int* const __restrict__ wl_in, const int* const __restrict__ in_size, int* const __restrict__ wl_out, int* const __restrict__ out_size, const int lvl)
{
  const int size = *in_size;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += gridDim.x * blockDim.x) {
    const int v = wl_in[i];
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int e = beg; e < end; e++) {
      const int n = __ldg(&nlist[e]);
      if (atomicCAS(&level[n], INT_MAX, lvl + 1) == INT_MAX) {
        const int pos = *out_size;
        *out_size = pos + 1;
        wl_out[pos] = n;
      }
    }
  }
}

int main()
{
  const int width = 1024;
  const int height = 768;
  ECLgraph g = makeGrid(width, height);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int* level = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) level[v] = INT_MAX;
  const int source = g.nodes / 2 + width / 2;
  level[source] = 0;

  int *d_nindex, *d_nlist, *d_level, *d_wl[2], *d_size[2];
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_level, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl[0], sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl[1], sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_size[0], sizeof(int));
  cudaMalloc((void**)&d_size[1], sizeof(int));
  CheckCuda(__LINE__);

  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_level, level, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wl[0], &source, sizeof(int), cudaMemcpyHostToDevice);
  const int one = 1;
  cudaMemcpy(d_size[0], &one, sizeof(int), cudaMemcpyHostToDevice);
  CheckCuda(__LINE__);

  const int blocks = 120;
  int lvl = 0;
  int cur = 0;
  int size = 1;
  while (size > 0) {
    cudaMemset(d_size[1 - cur], 0, sizeof(int));
    bfs_kernel<<<blocks, ThreadsPerBlock>>>(d_nindex, d_nlist, d_level, d_wl[cur], d_size[cur], d_wl[1 - cur], d_size[1 - cur], lvl);
    cudaMemcpy(&size, d_size[1 - cur], sizeof(int), cudaMemcpyDeviceToHost);
    cur = 1 - cur;
    lvl++;
  }
  CheckCuda(__LINE__);

  cudaMemcpy(level, d_level, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int unreached = 0;
  for (int v = 0; v < g.nodes; v++) unreached += (level[v] == INT_MAX);
  printf("%d levels, %d unreached\n", lvl, unreached);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_level);
  cudaFree(d_wl[0]); cudaFree(d_wl[1]); cudaFree(d_size[0]); cudaFree(d_size[1]);
  free(level); free(g.nindex); free(g.nlist);
  return 0;
}
