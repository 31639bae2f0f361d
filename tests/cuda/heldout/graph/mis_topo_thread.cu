// Maximal independent set (Luby style with fixed random priorities), topology driven,
// one thread per vertex.  A round has two launches:
//   select:  an undecided vertex whose priority beats all undecided neighbours joins the set
//   exclude: an undecided vertex with a neighbour in the set drops out
// Each launch reads the status array of the previous step and writes a fresh one.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

const int ThreadsPerBlock = 512;
#define WS 32

static const unsigned char undecided = 0;
static const unsigned char in = 1;
static const unsigned char out = 2;

struct ECLgraph {
  int nodes;
  int edges;
  int* nindex;
  int* nlist;
  int* eweight;
};

static ECLgraph randomGraph(const int n, const int avgdeg)
{
  const int m = n * avgdeg / 2;
  int* a = (int*)malloc(sizeof(int) * m);
  int* b = (int*)malloc(sizeof(int) * m);
  int* deg = (int*)calloc(n, sizeof(int));
  for (int i = 0; i < m; i++) {
    a[i] = rand() % n;
    b[i] = rand() % n;
    if (a[i] == b[i]) b[i] = (b[i] + 1) % n;
    deg[a[i]]++;
    deg[b[i]]++;
  }
  ECLgraph g;
  g.nodes = n;
  g.edges = 2 * m;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nlist = (int*)malloc(sizeof(int) * 2 * m);
  g.eweight = NULL;
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + deg[v];
  for (int v = 0; v < n; v++) deg[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[deg[a[i]]++] = b[i];
    g.nlist[deg[b[i]]++] = a[i];
  }
  free(a); free(b); free(deg);
  return g;
}

__global__ void mis_select(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const unsigned* const __restrict__ prio, const unsigned char* const __restrict__ st_in, unsigned char* const __restrict__ st_out)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nodes) {
    unsigned char s = st_in[v];
    if (s == undecided) {
      const unsigned pv = __ldg(&prio[v]);
      bool best = true;
      for (int i = __ldg(&nindex[v]); i < __ldg(&nindex[v + 1]); i++) {
        const int n = __ldg(&nlist[i]);
        if (st_in[n] == undecided) {
          const unsigned pn = __ldg(&prio[n]);
          if ((pn > pv) || ((pn == pv) && (n > v))) {
            best = false;
            break;
          }
        }
      }
      if (best) s = in;
    }
    st_out[v] = s;
  }
}

__global__ void mis_exclude(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const unsigned char* const __restrict__ st_in, unsigned char* const __restrict__ st_out, int* const __restrict__ goagain)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool open = false;
  if (v < nodes) {
    unsigned char s = st_in[v];
    if (s == undecided) {
      for (int i = __ldg(&nindex[v]); i < __ldg(&nindex[v + 1]); i++) {
        if (st_in[__ldg(&nlist[i])] == in) {
          s = out;
          break;
        }
      }
    }
    st_out[v] = s;
    open = (s == undecided);
  }
  const unsigned vote = __ballot_sync(0xffffffff, open);
  if (((threadIdx.x % WS) == 0) && (vote != 0)) atomicOr(goagain, 1);
}

int main(int argc, char* argv[])
{
  const int n = (argc > 1) ? atoi(argv[1]) : 500000;
  if (n < 2) {fprintf(stderr, "n must be at least 2\n"); return 1;}
  srand(12345);
  ECLgraph g = randomGraph(n, 6);
  unsigned* prio = (unsigned*)malloc(sizeof(unsigned) * g.nodes);
  for (int v = 0; v < g.nodes; v++) prio[v] = ((unsigned)rand() << 16) ^ (unsigned)rand();

  int *d_nindex, *d_nlist, *d_goagain;
  unsigned* d_prio;
  unsigned char *d_st1, *d_st2;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_prio, sizeof(unsigned) * g.nodes);
  cudaMalloc((void**)&d_st1, g.nodes);
  cudaMalloc((void**)&d_st2, g.nodes);
  cudaMalloc((void**)&d_goagain, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_prio, prio, sizeof(unsigned) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemset(d_st1, undecided, g.nodes);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  int goagain;
  int rounds = 0;
  do {
    cudaMemset(d_goagain, 0, sizeof(int));
    mis_select<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_prio, d_st1, d_st2);
    mis_exclude<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_st2, d_st1, d_goagain);
    cudaMemcpy(&goagain, d_goagain, sizeof(int), cudaMemcpyDeviceToHost);
    rounds++;
  } while (goagain);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); return 1;}

  unsigned char* st = (unsigned char*)malloc(g.nodes);
  cudaMemcpy(st, d_st1, g.nodes, cudaMemcpyDeviceToHost);
  int size = 0, bad = 0;
  for (int v = 0; v < g.nodes; v++) {
    if (st[v] == in) {
      size++;
      for (int i = g.nindex[v]; i < g.nindex[v + 1]; i++) if (st[g.nlist[i]] == in) bad++;
    }
  }
  printf("%d rounds, set size %d, conflicts %d\n", rounds, size, bad);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_prio);
  cudaFree(d_st1); cudaFree(d_st2); cudaFree(d_goagain);
  free(st); free(prio); free(g.nindex); free(g.nlist);
  return 0;
}
