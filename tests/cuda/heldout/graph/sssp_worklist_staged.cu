// Data-driven SSSP.  A vertex whose distance improved goes onto the next worklist at most
// once per round (iteration stamp).  Pushes are staged per block in shared memory and
// flushed to the global worklist with one atomicAdd per block.
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cuda_runtime.h>

const int ThreadsPerBlock = 512;
const int StageCap = 2 * ThreadsPerBlock;
#define WS 32

struct ECLgraph {
  int nodes;
  int edges;
  int* nindex;
  int* nlist;
  int* eweight;
};

static int cmpInt(const void* a, const void* b)
{
  const int x = *(const int*)a;
  const int y = *(const int*)b;
  return (x > y) - (x < y);
}

static ECLgraph randomWeightedGraph(const int n, const int avgdeg, const unsigned seed)
{
  srand(seed);
  const int m = n * avgdeg / 2;
  int* src = (int*)malloc(sizeof(int) * m);
  int* dst = (int*)malloc(sizeof(int) * m);
  int* cnt = (int*)calloc(n, sizeof(int));
  for (int i = 0; i < m; i++) {
    const int a = rand() % n;
    const int b = (a + 1 + rand() % (n - 1)) % n;
    src[i] = a;
    dst[i] = b;
    cnt[a]++;
    cnt[b]++;
  }
  ECLgraph g;
  g.nodes = n;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + cnt[v];
  g.nlist = (int*)malloc(sizeof(int) * g.nindex[n]);
  for (int v = 0; v < n; v++) cnt[v] = g.nindex[v];
  for (int i = 0; i < m; i++) {
    g.nlist[cnt[src[i]]++] = dst[i];
    g.nlist[cnt[dst[i]]++] = src[i];
  }
  int e = 0;
  for (int v = 0; v < n; v++) {
    const int beg = g.nindex[v];
    const int end = g.nindex[v + 1];
    qsort(&g.nlist[beg], end - beg, sizeof(int), cmpInt);
    g.nindex[v] = e;
    for (int i = beg; i < end; i++) {
      if ((i == beg) || (g.nlist[i] != g.nlist[i - 1])) g.nlist[e++] = g.nlist[i];
    }
  }
  g.nindex[n] = e;
  g.edges = e;
  g.eweight = (int*)malloc(sizeof(int) * e);
  for (int v = 0; v < n; v++) {
    for (int i = g.nindex[v]; i < g.nindex[v + 1]; i++) {
      const int u = g.nlist[i];
      const int lo = (u < v) ? u : v;
      const int hi = (u < v) ? v : u;
      g.eweight[i] = 1 + (int)(((unsigned)lo * 2654435761u + (unsigned)hi) % 1000u);
    }
  }
  free(src); free(dst); free(cnt);
  return g;
}

static __device__ __forceinline__ int atomicRead(int* const addr)
{
  return atomicOr(addr, 0);
}

__global__ void sssp_wl(const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ eweight, int* const __restrict__ dist, const int* const __restrict__ wl_in, const int in_size, int* const __restrict__ wl_out, int* const __restrict__ out_size, int* const __restrict__ stamp, const int iter)
{
  __shared__ int sbuf[StageCap];
  __shared__ int scount;
  __shared__ int sbase;

  if (threadIdx.x == 0) scount = 0;
  __syncthreads();

  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_size) {
    const int v = wl_in[i];
    const int dv = atomicRead(&dist[v]);
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int e = beg; e < end; e++) {
      const int n = __ldg(&nlist[e]);
      const int nd = dv + __ldg(&eweight[e]);
      if (atomicMin(&dist[n], nd) > nd) {
        if (atomicExch(&stamp[n], iter) != iter) {
          const int s = atomicAdd(&scount, 1);
          if (s < StageCap) {
            sbuf[s] = n;
          } else {
            wl_out[atomicAdd(out_size, 1)] = n;
          }
        }
      }
    }
  }
  __syncthreads();

  const int cnt = min(scount, StageCap);
  if (threadIdx.x == 0) sbase = atomicAdd(out_size, cnt);
  __syncthreads();

  for (int k = threadIdx.x; k < cnt; k += blockDim.x) {
    wl_out[sbase + k] = sbuf[k];
  }
}

int main(int argc, char* argv[])
{
  const int n = (argc > 1) ? atoi(argv[1]) : 200000;
  if (n < 2) {fprintf(stderr, "need at least 2 vertices\n"); exit(-1);}
  ECLgraph g = randomWeightedGraph(n, 10, 42u);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);
  const int source = 0;

  int* dist = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) dist[v] = INT_MAX;
  dist[source] = 0;

  int *d_nindex, *d_nlist, *d_eweight, *d_dist, *d_wl1, *d_wl2, *d_size, *d_stamp;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_eweight, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_dist, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl1, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl2, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_size, sizeof(int));
  cudaMalloc((void**)&d_stamp, sizeof(int) * g.nodes);
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_eweight, g.eweight, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dist, dist, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wl1, &source, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_stamp, 0xff, sizeof(int) * g.nodes);

  int in_size = 1;
  int iter = 1;
  while (in_size > 0) {
    cudaMemset(d_size, 0, sizeof(int));
    sssp_wl<<<(in_size + ThreadsPerBlock - 1) / ThreadsPerBlock, ThreadsPerBlock>>>(d_nindex, d_nlist, d_eweight, d_dist, d_wl1, in_size, d_wl2, d_size, d_stamp, iter);
    cudaMemcpy(&in_size, d_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = d_wl1; d_wl1 = d_wl2; d_wl2 = t;
    iter++;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); exit(-1);}

  cudaMemcpy(dist, d_dist, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int maxd = 0, unreached = 0;
  for (int v = 0; v < g.nodes; v++) {
    if (dist[v] == INT_MAX) unreached++;
    else if (dist[v] > maxd) maxd = dist[v];
  }
  printf("%d rounds, max distance %d, %d unreached\n", iter - 1, maxd, unreached);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_eweight); cudaFree(d_dist);
  cudaFree(d_wl1); cudaFree(d_wl2); cudaFree(d_size); cudaFree(d_stamp);
  free(dist); free(g.nindex); free(g.nlist); free(g.eweight);
  return 0;
}
