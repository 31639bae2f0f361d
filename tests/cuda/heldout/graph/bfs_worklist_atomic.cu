// Data-driven BFS: a worklist of the vertices discovered in the previous round.
// One thread per worklist entry, pushes newly discovered neighbours with atomicAdd.
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

static ECLgraph readECLgraph(const char* const fname)
{
  ECLgraph g;
  FILE* f = fopen(fname, "rb");
  if (f == NULL) {fprintf(stderr, "could not open %s\n", fname); exit(-1);}
  if (fread(&g.nodes, sizeof(int), 1, f) != 1) {fprintf(stderr, "read error\n"); exit(-1);}
  if (fread(&g.edges, sizeof(int), 1, f) != 1) {fprintf(stderr, "read error\n"); exit(-1);}
  if ((g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "bad graph\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges > 0 ? g.edges : 1));
  g.eweight = NULL;
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) {fprintf(stderr, "read error\n"); exit(-1);}
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) {fprintf(stderr, "read error\n"); exit(-1);}
  fclose(f);
  return g;
}

// random undirected graph; lists sorted, duplicates removed
static ECLgraph randomGraph(const int n, const int avgdeg, const unsigned seed)
{
  srand(seed);
  const int m = n * avgdeg / 2;
  int* src = (int*)malloc(sizeof(int) * m);
  int* dst = (int*)malloc(sizeof(int) * m);
  int* pos = (int*)calloc(n, sizeof(int));
  for (int i = 0; i < m; i++) {
    const int a = rand() % n;
    int b = rand() % n;
    if (a == b) b = (b + 1) % n;
    src[i] = a;
    dst[i] = b;
    pos[a]++;
    pos[b]++;
  }
  ECLgraph g;
  g.nodes = n;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + pos[v];
  g.nlist = (int*)malloc(sizeof(int) * (g.nindex[n] > 0 ? g.nindex[n] : 1));
  for (int v = 0; v < n; v++) pos[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[pos[src[i]]++] = dst[i];
    g.nlist[pos[dst[i]]++] = src[i];
  }
  int e = 0;
  for (int v = 0; v < n; v++) {
    const int beg = g.nindex[v];
    const int end = g.nindex[v + 1];
    for (int i = beg + 1; i < end; i++) {
      const int x = g.nlist[i];
      int j = i - 1;
      while ((j >= beg) && (g.nlist[j] > x)) {
        g.nlist[j + 1] = g.nlist[j];
        j--;
      }
      g.nlist[j + 1] = x;
    }
    g.nindex[v] = e;
    int last = -1;
    for (int i = beg; i < end; i++) {
      const int x = g.nlist[i];
      if (x != last) {
        g.nlist[e++] = x;
        last = x;
      }
    }
  }
  g.nindex[n] = e;
  g.edges = e;
  g.eweight = NULL;
  free(src); free(dst); free(pos);
  return g;
}

__global__ void bfs_wl(const int* __restrict__ nindex, const int* __restrict__ nlist, int* __restrict__ level, const int* __restrict__ wl_in, const int in_size, int* __restrict__ wl_out, int* __restrict__ out_size, const int lvl)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_size) {
    const int v = wl_in[i];
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    for (int e = beg; e < end; e++) {
      const int n = nlist[e];
      if (atomicCAS(&level[n], INT_MAX, lvl + 1) == INT_MAX) {
        const int slot = atomicAdd(out_size, 1);
        wl_out[slot] = n;
      }
    }
  }
}

int main(int argc, char* argv[])
{
  ECLgraph g;
  if (argc > 1) {
    g = readECLgraph(argv[1]);
  } else {
    g = randomGraph(100000, 8, 1234u);
  }
  printf("%d nodes, %d edges\n", g.nodes, g.edges);
  const int source = 0;

  int* level = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) level[v] = INT_MAX;
  level[source] = 0;

  int *d_nindex, *d_nlist, *d_level, *d_wl1, *d_wl2, *d_size;
  if (cudaSuccess != cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1))) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}
  if (cudaSuccess != cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges > 0 ? g.edges : 1))) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}
  if (cudaSuccess != cudaMalloc((void**)&d_level, sizeof(int) * g.nodes)) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}
  if (cudaSuccess != cudaMalloc((void**)&d_wl1, sizeof(int) * g.nodes)) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}
  if (cudaSuccess != cudaMalloc((void**)&d_wl2, sizeof(int) * g.nodes)) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}
  if (cudaSuccess != cudaMalloc((void**)&d_size, sizeof(int))) {fprintf(stderr, "cudaMalloc failed\n"); exit(-1);}

  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_level, level, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wl1, &source, sizeof(int), cudaMemcpyHostToDevice);

  int in_size = 1;
  int lvl = 0;
  while (in_size > 0) {
    cudaMemset(d_size, 0, sizeof(int));
    const int blocks = (in_size + ThreadsPerBlock - 1) / ThreadsPerBlock;
    bfs_wl<<<blocks, ThreadsPerBlock>>>(d_nindex, d_nlist, d_level, d_wl1, in_size, d_wl2, d_size, lvl);
    cudaMemcpy(&in_size, d_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* tmp = d_wl1;
    d_wl1 = d_wl2;
    d_wl2 = tmp;
    lvl++;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); exit(-1);}

  cudaMemcpy(level, d_level, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int reached = 0;
  for (int v = 0; v < g.nodes; v++) reached += (level[v] != INT_MAX);
  printf("levels: %d, reached %d of %d\n", lvl, reached, g.nodes);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_level);
  cudaFree(d_wl1); cudaFree(d_wl2); cudaFree(d_size);
  free(level); free(g.nindex); free(g.nlist);
  return 0;
}
