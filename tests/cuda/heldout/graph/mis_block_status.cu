// Maximal independent set, one thread per vertex, priorities from a hash of the vertex id.
// Per round: a select launch and an exclude launch (double-buffered status arrays).  The
// exclude launch counts the still-undecided vertices of a block in shared memory so that
// only one atomic per block touches the global flag.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const int ThreadsPerBlock = 512;
#define WS 32

enum {Undecided = 0, Included = 1, Excluded = 2};

struct ECLgraph {
  int nodes;
  int edges;
  int* nindex;
  int* nlist;
  int* eweight;
};

static ECLgraph makeRandom(const int n, const int d)
{
  ECLgraph g;
  g.nodes = n;
  int* deg = (int*)calloc(n, sizeof(int));
  int* ea = (int*)malloc(sizeof(int) * n * d);
  int* eb = (int*)malloc(sizeof(int) * n * d);
  int m = 0;
  for (int v = 0; v < n; v++) {
    for (int k = 0; k < d; k++) {
      const int u = (int)(((unsigned)rand() * 2654435761u + (unsigned)k) % (unsigned)n);
      if (u == v) continue;
      ea[m] = v; eb[m] = u; m++;
      deg[v]++; deg[u]++;
    }
  }
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + deg[v];
  g.edges = g.nindex[n];
  g.nlist = (int*)malloc(sizeof(int) * g.edges);
  g.eweight = NULL;
  for (int v = 0; v < n; v++) deg[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[deg[ea[i]]++] = eb[i];
    g.nlist[deg[eb[i]]++] = ea[i];
  }
  free(deg); free(ea); free(eb);
  return g;
}

static __device__ unsigned prio(const int v)
{
  unsigned x = (unsigned)v * 0x9E3779B9u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}

__global__ void select_kernel(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ st_in, int* const __restrict__ st_out)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) {
    int s = st_in[v];
    if (s == Undecided) {
      const unsigned pv = prio(v);
      bool top = true;
      for (int i = nindex[v]; top && (i < nindex[v + 1]); i++) {
        const int n = nlist[i];
        if (st_in[n] == Undecided) {
          const unsigned pn = prio(n);
          if ((pn > pv) || ((pn == pv) && (n > v))) top = false;
        }
      }
      if (top) s = Included;
    }
    st_out[v] = s;
  }
}

__global__ void exclude_kernel(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ st_in, int* const __restrict__ st_out, int* const __restrict__ goagain)
{
  __shared__ int open;
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (threadIdx.x == 0) open = 0;
  __syncthreads();

  if (v < nodes) {
    int s = st_in[v];
    if (s == Undecided) {
      for (int i = nindex[v]; i < nindex[v + 1]; i++) {
        if (st_in[nlist[i]] == Included) {
          s = Excluded;
          break;
        }
      }
    }
    st_out[v] = s;
    if (s == Undecided) atomicAdd(&open, 1);
    __syncthreads();
    if ((threadIdx.x == 0) && (open > 0)) atomicExch(goagain, 1);
  }
}

int main()
{
  srand(2024);
  const int n = 100003;
  ECLgraph g = makeRandom(n, 4);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist, *d_s1, *d_s2, *d_goagain;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_s1, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_s2, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_goagain, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemset(d_s1, 0, sizeof(int) * g.nodes);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  int goagain = 0;
  int rounds = 0;
  do {
    cudaMemset(d_goagain, 0, sizeof(int));
    select_kernel<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_s1, d_s2);
    exclude_kernel<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_s2, d_s1, d_goagain);
    cudaMemcpy(&goagain, d_goagain, sizeof(int), cudaMemcpyDeviceToHost);
    rounds++;
  } while (goagain);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); exit(-1);}

  int* st = (int*)malloc(sizeof(int) * g.nodes);
  cudaMemcpy(st, d_s1, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int inset = 0;
  for (int v = 0; v < g.nodes; v++) inset += (st[v] == Included);
  printf("%d rounds, %d vertices in the set\n", rounds, inset);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_s1); cudaFree(d_s2); cudaFree(d_goagain);
  free(st); free(g.nindex); free(g.nlist);
  return 0;
}
