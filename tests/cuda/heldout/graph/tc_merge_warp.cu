// Triangle counting, one warp per vertex u on a persistent grid.  The lanes take the
// neighbours v > u of u in a strided fashion and each lane intersects adj(u) (after v) with
// adj(v) by merging; the per-lane counts are summed with shuffles and lane 0 adds the sum.
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

static ECLgraph readECLgraph(const char* const fname)
{
  ECLgraph g;
  FILE* f = fopen(fname, "rb");
  if (f == NULL) {fprintf(stderr, "cannot open %s\n", fname); exit(-1);}
  if (fread(&g.nodes, sizeof(int), 1, f) != 1) {fprintf(stderr, "bad file\n"); exit(-1);}
  if (fread(&g.edges, sizeof(int), 1, f) != 1) {fprintf(stderr, "bad file\n"); exit(-1);}
  if ((g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "bad file\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) {fprintf(stderr, "bad file\n"); exit(-1);}
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) {fprintf(stderr, "bad file\n"); exit(-1);}
  fclose(f);
  return g;
}

// random graph, adjacency lists sorted and without duplicates or self loops
static ECLgraph randomSorted(const int n, const int avgdeg)
{
  const int m = n * avgdeg / 2;
  int* a = (int*)malloc(sizeof(int) * m);
  int* b = (int*)malloc(sizeof(int) * m);
  int* pos = (int*)calloc(n, sizeof(int));
  for (int i = 0; i < m; i++) {
    a[i] = rand() % n;
    b[i] = (a[i] + 1 + rand() % 64) % n;  // mostly local edges, so there are triangles
    pos[a[i]]++;
    pos[b[i]]++;
  }
  ECLgraph g;
  g.nodes = n;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + pos[v];
  g.nlist = (int*)malloc(sizeof(int) * (g.nindex[n] + 1));
  g.eweight = NULL;
  for (int v = 0; v < n; v++) pos[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[pos[a[i]]++] = b[i];
    g.nlist[pos[b[i]]++] = a[i];
  }
  int e = 0;
  for (int v = 0; v < n; v++) {
    const int beg = g.nindex[v], end = g.nindex[v + 1];
    for (int i = beg + 1; i < end; i++) {
      const int x = g.nlist[i];
      int j = i;
      while ((j > beg) && (g.nlist[j - 1] > x)) {
        g.nlist[j] = g.nlist[j - 1];
        j--;
      }
      g.nlist[j] = x;
    }
    g.nindex[v] = e;
    int prev = -1;
    for (int i = beg; i < end; i++) {
      const int x = g.nlist[i];
      if ((x != prev) && (x != v)) g.nlist[e++] = x;
      prev = x;
    }
  }
  g.nindex[n] = e;
  g.edges = e;
  free(a); free(b); free(pos);
  return g;
}

__global__ void tc_warp(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, unsigned long long* const __restrict__ total)
{
  const int lane = threadIdx.x % WS;
  const int gw = (blockIdx.x * blockDim.x + threadIdx.x) / WS;
  const int nw = (gridDim.x * blockDim.x) / WS;

  for (int u = gw; u < nodes; u += nw) {
    const int ub = __ldg(&nindex[u]);
    const int ue = __ldg(&nindex[u + 1]);
    unsigned long long cnt = 0;
    for (int i = ub + lane; i < ue; i += WS) {
      const int v = __ldg(&nlist[i]);
      if (v > u) {
        int a = i + 1;
        int b = __ldg(&nindex[v]);
        const int be = __ldg(&nindex[v + 1]);
        while ((a < ue) && (b < be)) {
          const int x = __ldg(&nlist[a]);
          const int y = __ldg(&nlist[b]);
          cnt += (x == y);
          a += (x <= y);
          b += (x >= y);
        }
      }
    }
    for (int off = WS / 2; off > 0; off /= 2) {
      cnt += __shfl_down_sync(0xffffffff, cnt, off);
    }
    if ((lane == 0) && (cnt > 0)) atomicAdd(total, cnt);
  }
}

int main(int argc, char* argv[])
{
  srand(5);
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : randomSorted(400000, 16);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist;
  unsigned long long* d_total;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / ThreadsPerBlock);
  tc_warp<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_total);

  unsigned long long total = 0;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 1;}
  printf("%llu triangles\n", total);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_total);
  free(g.nindex); free(g.nlist);
  return 0;
}
