// PageRank, pull style, one warp per vertex on a persistent grid.  A first launch computes
// every vertex's outgoing contribution rank/degree; the second sums the contributions of
// the neighbours with lane-strided loads and a shuffle reduction.  The error is reduced per
// warp (shuffles), then per block (shared memory), then with one atomicAdd per block.
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

static ECLgraph randomGraph(const int n, const int avgdeg)
{
  const int m = n * avgdeg / 2;
  int* a = (int*)malloc(sizeof(int) * m);
  int* b = (int*)malloc(sizeof(int) * m);
  int* deg = (int*)calloc(n, sizeof(int));
  for (int i = 0; i < m; i++) {
    a[i] = rand() % n;
    b[i] = (a[i] + 1 + rand() % (n - 1)) % n;
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

__global__ void contrib_kernel(const int nodes, const int* const __restrict__ nindex, const float* const __restrict__ rank, float* const __restrict__ contrib)
{
  for (int v = threadIdx.x + blockIdx.x * blockDim.x; v < nodes; v += gridDim.x * blockDim.x) {
    const int deg = nindex[v + 1] - nindex[v];
    contrib[v] = (deg > 0) ? rank[v] / deg : 0.0f;
  }
}

__global__ void pr_warp(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const float* const __restrict__ contrib, const float* const __restrict__ rank_in, float* const __restrict__ rank_out, float* const __restrict__ err, const float base, const float damp)
{
  __shared__ float werr[ThreadsPerBlock / WS];
  const int lane = threadIdx.x % WS;
  const int wid = threadIdx.x / WS;
  const int gw = (blockIdx.x * blockDim.x + threadIdx.x) / WS;
  const int nw = (gridDim.x * blockDim.x) / WS;

  float myerr = 0.0f;
  for (int v = gw; v < nodes; v += nw) {
    float sum = 0.0f;
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int e = beg + lane; e < end; e += WS) {
      sum += __ldg(&contrib[__ldg(&nlist[e])]);
    }
    for (int off = WS / 2; off > 0; off /= 2) {
      sum += __shfl_down_sync(0xffffffff, sum, off);
    }
    if (lane == 0) {
      const float val = base + damp * sum;
      rank_out[v] = val;
      myerr += fabsf(val - rank_in[v]);
    }
  }

  if (lane == 0) werr[wid] = myerr;
  __syncthreads();
  if (wid == 0) {
    float x = (lane < (int)(blockDim.x / WS)) ? werr[lane] : 0.0f;
    for (int off = WS / 2; off > 0; off /= 2) {
      x += __shfl_down_sync(0xffffffff, x, off);
    }
    if (lane == 0) atomicAdd(err, x);
  }
}

int main(int argc, char* argv[])
{
  const int n = (argc > 1) ? atoi(argv[1]) : 1 << 20;
  if (n < 2) {fprintf(stderr, "too small\n"); exit(-1);}
  srand(3);
  ECLgraph g = randomGraph(n, 12);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  const float damp = 0.85f;
  const float base = (1.0f - damp) / g.nodes;
  float* rank = (float*)malloc(sizeof(float) * g.nodes);
  for (int v = 0; v < g.nodes; v++) rank[v] = 1.0f / g.nodes;

  int *d_nindex, *d_nlist;
  float *d_ra, *d_rb, *d_contrib, *d_err;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_ra, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_rb, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_contrib, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_err, sizeof(float));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_ra, rank, sizeof(float) * g.nodes, cudaMemcpyHostToDevice);

  int SMs, mTpSM;
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&mTpSM, cudaDevAttrMaxThreadsPerMultiProcessor, 0);
  const int blocks = SMs * mTpSM / ThreadsPerBlock;

  float err = 0.0f;
  int iter = 0;
  do {
    cudaMemset(d_err, 0, sizeof(float));
    contrib_kernel<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_ra, d_contrib);
    pr_warp<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_contrib, d_ra, d_rb, d_err, base, damp);
    cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    float* t = d_ra; d_ra = d_rb; d_rb = t;
    iter++;
  } while ((err > 1e-5f) && (iter < 200));
  if (cudaGetLastError() != cudaSuccess) {fprintf(stderr, "CUDA error\n"); return 1;}

  cudaMemcpy(rank, d_ra, sizeof(float) * g.nodes, cudaMemcpyDeviceToHost);
  double total = 0.0;
  for (int v = 0; v < g.nodes; v++) total += rank[v];
  printf("%d iterations, error %g, rank sum %f\n", iter, err, total);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_ra); cudaFree(d_rb);
  cudaFree(d_contrib); cudaFree(d_err);
  free(rank); free(g.nindex); free(g.nlist);
  return 0;
}
