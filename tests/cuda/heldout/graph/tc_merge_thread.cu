// Triangle counting by sorted-list intersection, one thread per vertex u: for every
// neighbour v > u it merges the tails of adj(u) and adj(v) and counts the common
// neighbours w > v, so each triangle u < v < w is counted exactly once.
#include <cstdio>
#include <cstdlib>
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

// grid with one diagonal per cell: 2 triangles per cell, sorted adjacency lists
static ECLgraph triangulatedGrid(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 6 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int r = 0; r < h; r++) {
    for (int c = 0; c < w; c++) {
      const int v = r * w + c;
      g.nindex[v] = e;
      if ((r > 0) && (c > 0)) g.nlist[e++] = v - w - 1;
      if (r > 0) g.nlist[e++] = v - w;
      if (c > 0) g.nlist[e++] = v - 1;
      if (c < w - 1) g.nlist[e++] = v + 1;
      if (r < h - 1) g.nlist[e++] = v + w;
      if ((r < h - 1) && (c < w - 1)) g.nlist[e++] = v + w + 1;
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __global__ void tc_kernel(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, unsigned long long* const __restrict__ total)
{
  const int u = threadIdx.x + blockIdx.x * blockDim.x;
  if (u < nodes) {
    const int ub = nindex[u];
    const int ue = nindex[u + 1];
    unsigned long long cnt = 0;
    for (int i = ub; i < ue; i++) {
      const int v = nlist[i];
      if (v > u) {
        int a = i + 1;
        int b = nindex[v];
        const int be = nindex[v + 1];
        while ((a < ue) && (b < be)) {
          const int x = nlist[a];
          const int y = nlist[b];
          if (x < y) {
            a++;
          } else if (x > y) {
            b++;
          } else {
            cnt++;
            a++;
            b++;
          }
        }
      }
    }
    if (cnt > 0) atomicAdd(total, cnt);
  }
}

int main(int argc, char* argv[])
{
  int w = 2000, h = 1500;
  if (argc == 3) {
    w = atoi(argv[1]);
    h = atoi(argv[2]);
    if ((w < 2) || (h < 2)) {fprintf(stderr, "grid too small\n"); return 1;}
  }
  ECLgraph g = triangulatedGrid(w, h);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist;
  unsigned long long* d_total;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));

  tc_kernel<<<(g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_total);
  unsigned long long total;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 1;}

  const unsigned long long expect = 2ULL * (w - 1) * (h - 1);
  printf("triangles: %llu (expected %llu)\n", total, expect);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_total);
  free(g.nindex); free(g.nlist);
  return 0;
}
