// Maximal independent set with hashed random priorities, one warp per vertex.
// The lanes of a warp check the neighbours in parallel and combine with warp votes.
// Two launches per round (pick / drop), each reading one status buffer and writing the other.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const int ThreadsPerBlock = 512;
#define WS 32

#define UNDECIDED 0
#define INSET 1
#define EXCLUDED 2

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
  size_t ok = fread(&g.nodes, sizeof(int), 1, f);
  ok += fread(&g.edges, sizeof(int), 1, f);
  if ((ok != 2) || (g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "bad header\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  ok = fread(g.nindex, sizeof(int), g.nodes + 1, f);
  ok += fread(g.nlist, sizeof(int), g.edges, f);
  if (ok != (size_t)(g.nodes + 1 + g.edges)) {fprintf(stderr, "short file\n"); exit(-1);}
  fclose(f);
  return g;
}

// king's graph (8-neighbourhood) on a w x h board
static ECLgraph kingGraph(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 8 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int r = 0; r < h; r++) {
    for (int c = 0; c < w; c++) {
      g.nindex[r * w + c] = e;
      for (int dr = -1; dr <= 1; dr++) {
        for (int dc = -1; dc <= 1; dc++) {
          const int rr = r + dr, cc = c + dc;
          if ((dr != 0 || dc != 0) && rr >= 0 && rr < h && cc >= 0 && cc < w) g.nlist[e++] = rr * w + cc;
        }
      }
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __device__ __forceinline__ unsigned hashPrio(unsigned x)
{
  x = ((x >> 16) ^ x) * 0x45d9f3bu;
  x = ((x >> 16) ^ x) * 0x45d9f3bu;
  return (x >> 16) ^ x;
}

__global__ void mis_pick(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ st_in, int* const __restrict__ st_out)
{
  const int lane = threadIdx.x % WS;
  const int gw = (threadIdx.x + blockIdx.x * blockDim.x) / WS;
  const int nw = (gridDim.x * blockDim.x) / WS;
  for (int v = gw; v < nodes; v += nw) {
    const int s = st_in[v];
    int res = s;
    if (s == UNDECIDED) {
      const unsigned pv = hashPrio(v);
      bool beaten = false;
      const int end = __ldg(&nindex[v + 1]);
      for (int e = __ldg(&nindex[v]) + lane; e < end; e += WS) {
        const int n = __ldg(&nlist[e]);
        if (st_in[n] == UNDECIDED) {
          const unsigned pn = hashPrio(n);
          if ((pn > pv) || ((pn == pv) && (n > v))) beaten = true;
        }
      }
      if (!__any_sync(0xffffffff, beaten)) res = INSET;
    }
    if (lane == 0) st_out[v] = res;
  }
}

__global__ void mis_drop(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ st_in, int* const __restrict__ st_out, int* const __restrict__ goagain)
{
  const int lane = threadIdx.x % WS;
  const int gw = (threadIdx.x + blockIdx.x * blockDim.x) / WS;
  const int nw = (gridDim.x * blockDim.x) / WS;
  for (int v = gw; v < nodes; v += nw) {
    const int s = st_in[v];
    int res = s;
    if (s == UNDECIDED) {
      bool hit = false;
      const int end = __ldg(&nindex[v + 1]);
      for (int e = __ldg(&nindex[v]) + lane; e < end; e += WS) {
        if (st_in[__ldg(&nlist[e])] == INSET) hit = true;
      }
      const unsigned b = __ballot_sync(0xffffffff, hit);
      if (b != 0) res = EXCLUDED;
    }
    if (lane == 0) {
      st_out[v] = res;
      if (res == UNDECIDED) atomicOr(goagain, 1);
    }
  }
}

int main(int argc, char* argv[])
{
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : kingGraph(700, 700);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist, *d_sa, *d_sb, *d_goagain;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_sa, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_sb, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_goagain, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemset(d_sa, 0, sizeof(int) * g.nodes);

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / ThreadsPerBlock);

  int goagain;
  int rounds = 0;
  do {
    cudaMemset(d_goagain, 0, sizeof(int));
    mis_pick<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_sa, d_sb);
    mis_drop<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_sb, d_sa, d_goagain);
    cudaMemcpy(&goagain, d_goagain, sizeof(int), cudaMemcpyDeviceToHost);
    rounds++;
  } while (goagain != 0);
  if (cudaGetLastError() != cudaSuccess) {fprintf(stderr, "kernel error\n"); exit(-1);}

  int* st = (int*)malloc(sizeof(int) * g.nodes);
  cudaMemcpy(st, d_sa, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int count = 0;
  for (int v = 0; v < g.nodes; v++) count += (st[v] == INSET);
  printf("%d rounds, independent set of %d vertices\n", rounds, count);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_sa); cudaFree(d_sb); cudaFree(d_goagain);
  free(st); free(g.nindex); free(g.nlist);
  return 0;
}
