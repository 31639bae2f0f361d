// Data-driven BFS with a persistent grid.  Each lane owns one worklist entry; the warp
// walks the adjacency lists in lock step and pushes the vertices it discovered with one
// warp-aggregated atomicAdd (ballot + popc) per step.
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
  if (f == NULL) {fprintf(stderr, "ERROR: could not open %s\n", fname); exit(-1);}
  size_t cnt = fread(&g.nodes, sizeof(g.nodes), 1, f);
  cnt += fread(&g.edges, sizeof(g.edges), 1, f);
  if ((cnt != 2) || (g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "ERROR: bad header\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * g.edges + 1);
  g.eweight = NULL;
  cnt = fread(g.nindex, sizeof(int), g.nodes + 1, f);
  cnt += fread(g.nlist, sizeof(int), g.edges, f);
  if (cnt != (size_t)g.nodes + 1 + g.edges) {fprintf(stderr, "ERROR: truncated file\n"); exit(-1);}
  fclose(f);
  return g;
}

// ring of n vertices plus chords v -> (v * 7 + 3) % n, symmetrised, sorted
static ECLgraph chordRing(const int n)
{
  int* deg = (int*)calloc(n, sizeof(int));
  for (int v = 0; v < n; v++) {
    const int u = (int)(((long long)v * 7 + 3) % n);
    deg[v] += 2;
    if (u != v && u != (v + 1) % n && u != (v + n - 1) % n) {deg[v]++; deg[u]++;}
  }
  ECLgraph g;
  g.nodes = n;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + deg[v];
  g.edges = g.nindex[n];
  g.nlist = (int*)malloc(sizeof(int) * g.edges);
  g.eweight = NULL;
  for (int v = 0; v < n; v++) deg[v] = g.nindex[v];
  for (int v = 0; v < n; v++) {
    g.nlist[deg[v]++] = (v + 1) % n;
    g.nlist[deg[v]++] = (v + n - 1) % n;
    const int u = (int)(((long long)v * 7 + 3) % n);
    if (u != v && u != (v + 1) % n && u != (v + n - 1) % n) {
      g.nlist[deg[v]++] = u;
      g.nlist[deg[u]++] = v;
    }
  }
  // the chords may create parallel edges; they are harmless for BFS
  free(deg);
  return g;
}

__global__ void bfs_expand(const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ level, const int* const __restrict__ wl_in, const int in_size, int* const __restrict__ wl_out, int* const __restrict__ out_size, const int lvl)
{
  const int lane = threadIdx.x % WS;
  const int stride = gridDim.x * blockDim.x;
  for (int base = blockIdx.x * blockDim.x + threadIdx.x - lane; base < in_size; base += stride) {
    const int i = base + lane;
    int e = 0, end = 0;
    if (i < in_size) {
      const int v = wl_in[i];
      e = __ldg(&nindex[v]);
      end = __ldg(&nindex[v + 1]);
    }
    while (__any_sync(0xffffffff, e < end)) {
      int n = -1;
      bool push = false;
      if (e < end) {
        n = __ldg(&nlist[e]);
        e++;
        push = (atomicCAS(&level[n], INT_MAX, lvl + 1) == INT_MAX);
      }
      const unsigned mask = __ballot_sync(0xffffffff, push);
      int pos = 0;
      if ((lane == 0) && (mask != 0)) pos = atomicAdd(out_size, __popc(mask));
      pos = __shfl_sync(0xffffffff, pos, 0);
      if (push) wl_out[pos + __popc(mask & ((1u << lane) - 1))] = n;
    }
  }
}

int main(int argc, char* argv[])
{
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : chordRing(250000);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int* level = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) level[v] = INT_MAX;
  const int source = 0;
  level[source] = 0;

  int *d_nindex, *d_nlist, *d_level, *d_wlA, *d_wlB, *d_cnt;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges + 1);
  cudaMalloc((void**)&d_level, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wlA, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wlB, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_cnt, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_level, level, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wlA, &source, sizeof(int), cudaMemcpyHostToDevice);

  int SMs = 0, mTpSM = 0;
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&mTpSM, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  const int blocks = SMs * mTpSM / ThreadsPerBlock;

  int size = 1;
  int lvl = 0;
  do {
    cudaMemset(d_cnt, 0, sizeof(int));
    bfs_expand<<<blocks, ThreadsPerBlock>>>(d_nindex, d_nlist, d_level, d_wlA, size, d_wlB, d_cnt, lvl);
    cudaMemcpy(&size, d_cnt, sizeof(int), cudaMemcpyDeviceToHost);
    int* tmp = d_wlA; d_wlA = d_wlB; d_wlB = tmp;
    lvl++;
  } while (size > 0);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA: %s\n", cudaGetErrorString(err)); return -1;}

  cudaMemcpy(level, d_level, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int maxl = 0, unreached = 0;
  for (int v = 0; v < g.nodes; v++) {
    if (level[v] == INT_MAX) unreached++;
    else if (level[v] > maxl) maxl = level[v];
  }
  printf("depth %d, unreached %d\n", maxl, unreached);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_level);
  cudaFree(d_wlA); cudaFree(d_wlB); cudaFree(d_cnt);
  free(level); free(g.nindex); free(g.nlist);
  return 0;
}
