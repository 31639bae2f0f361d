// Connected components by label propagation, topology driven, push style: every vertex
// pushes its label to all neighbours with atomicMin.  Persistent grid-stride kernel.
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
  if ((fread(&g.nodes, sizeof(int), 1, f) != 1) || (fread(&g.edges, sizeof(int), 1, f) != 1)) {fprintf(stderr, "bad file\n"); exit(-1);}
  if ((g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "bad file\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) {fprintf(stderr, "bad file\n"); exit(-1);}
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) {fprintf(stderr, "bad file\n"); exit(-1);}
  fclose(f);
  return g;
}

// many small random components: vertices are grouped in clusters of 'csize'
static ECLgraph clusteredGraph(const int n, const int csize, const int deg)
{
  ECLgraph g;
  g.nodes = n;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nlist = (int*)malloc(sizeof(int) * (2 * n * deg + 1));
  g.eweight = NULL;
  int* cnt = (int*)calloc(n, sizeof(int));
  int* es = (int*)malloc(sizeof(int) * n * deg);
  int* ed = (int*)malloc(sizeof(int) * n * deg);
  int m = 0;
  for (int v = 0; v < n; v++) {
    const int first = (v / csize) * csize;
    const int size = (first + csize <= n) ? csize : (n - first);
    if (size < 2) continue;
    for (int k = 0; k < deg; k++) {
      const int u = first + rand() % size;
      if (u == v) continue;
      es[m] = v; ed[m] = u; m++;
      cnt[v]++; cnt[u]++;
    }
  }
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + cnt[v];
  for (int v = 0; v < n; v++) cnt[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[cnt[es[i]]++] = ed[i];
    g.nlist[cnt[ed[i]]++] = es[i];
  }
  g.edges = g.nindex[n];
  free(cnt); free(es); free(ed);
  return g;
}

static __global__ void init(const int nodes, int* const __restrict__ label)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) label[v] = v;
}

static __global__ void cc_push(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ label, int* const __restrict__ changed)
{
  for (int v = threadIdx.x + blockIdx.x * blockDim.x; v < nodes; v += gridDim.x * blockDim.x) {
    const int lv = atomicAdd(&label[v], 0);
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int i = beg; i < end; i++) {
      const int n = __ldg(&nlist[i]);
      if (atomicMin(&label[n], lv) > lv) {
        atomicExch(changed, 1);
      }
    }
  }
}

int main(int argc, char* argv[])
{
  srand(7);
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : clusteredGraph(300000, 1000, 3);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist, *d_label, *d_changed;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_label, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_changed, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);

  int dev = 0, SMs = 0, mTpSM = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&mTpSM, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
  const int blocks = SMs * (mTpSM / ThreadsPerBlock);

  init<<<(g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock, ThreadsPerBlock>>>(g.nodes, d_label);
  int goagain;
  int rounds = 0;
  do {
    cudaMemset(d_changed, 0, sizeof(int));
    cc_push<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_label, d_changed);
    cudaMemcpy(&goagain, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    rounds++;
  } while (goagain);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); return -1;}

  int* label = (int*)malloc(sizeof(int) * g.nodes);
  cudaMemcpy(label, d_label, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int comps = 0;
  for (int v = 0; v < g.nodes; v++) comps += (label[v] == v);
  printf("%d rounds, %d components\n", rounds, comps);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_label); cudaFree(d_changed);
  free(label); free(g.nindex); free(g.nlist);
  return 0;
}
