// PageRank, pull style, one block per vertex with a shared-memory tree reduction of the
// neighbour contributions.  Thread 0 of each block accumulates the rank change, and the
// blocks add their changes to a global error.
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

static ECLgraph readECLgraph(const char* const fname)
{
  ECLgraph g;
  FILE* f = fopen(fname, "rb");
  if (f == NULL) {fprintf(stderr, "ERROR: could not open file %s\n", fname); exit(-1);}
  int cnt = fread(&g.nodes, sizeof(g.nodes), 1, f);
  cnt += fread(&g.edges, sizeof(g.edges), 1, f);
  if ((cnt != 2) || (g.nodes < 1) || (g.edges < 0)) {fprintf(stderr, "ERROR: bad header\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  cnt = fread(g.nindex, sizeof(int), g.nodes + 1, f);
  cnt += fread(g.nlist, sizeof(int), g.edges, f);
  if (cnt != g.nodes + 1 + g.edges) {fprintf(stderr, "ERROR: bad body\n"); exit(-1);}
  fclose(f);
  return g;
}

static ECLgraph makeGrid(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 4 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int r = 0; r < h; r++) {
    for (int c = 0; c < w; c++) {
      const int v = r * w + c;
      g.nindex[v] = e;
      if (r > 0) g.nlist[e++] = v - w;
      if (c > 0) g.nlist[e++] = v - 1;
      if (c < w - 1) g.nlist[e++] = v + 1;
      if (r < h - 1) g.nlist[e++] = v + w;
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __global__ void pagerank(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const float* const __restrict__ old_pr, float* const __restrict__ new_pr, float* const __restrict__ delta, const float base, const float damp)
{
  __shared__ float part[ThreadsPerBlock];
  float change = 0.0f;

  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {
    float sum = 0.0f;
    for (int e = nindex[v] + threadIdx.x; e < nindex[v + 1]; e += blockDim.x) {
      const int n = __ldg(&nlist[e]);
      sum += old_pr[n] / (__ldg(&nindex[n + 1]) - __ldg(&nindex[n]));
    }
    part[threadIdx.x] = sum;
    for (int s = ThreadsPerBlock / 2; s > 0; s /= 2) {
      if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      const float val = base + damp * part[0];
      change += fabsf(val - old_pr[v]);
      new_pr[v] = val;
    }
  }
  if (threadIdx.x == 0) atomicAdd(delta, change);
}

int main(int argc, char* argv[])
{
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : makeGrid(400, 400);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);
  const float damp = 0.85f;
  const float base = (1.0f - damp) / g.nodes;

  float* pr = (float*)malloc(sizeof(float) * g.nodes);
  for (int v = 0; v < g.nodes; v++) pr[v] = 1.0f / g.nodes;

  int *d_nindex, *d_nlist;
  float *d_old, *d_new, *d_delta;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_old, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_new, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_delta, sizeof(float));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_old, pr, sizeof(float) * g.nodes, cudaMemcpyHostToDevice);

  int SMs;
  cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0);
  const int blocks = 4 * SMs;
  float delta;
  int iter = 0;
  do {
    cudaMemset(d_delta, 0, sizeof(float));
    pagerank<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_old, d_new, d_delta, base, damp);
    cudaMemcpy(&delta, d_delta, sizeof(float), cudaMemcpyDeviceToHost);
    float* t = d_old; d_old = d_new; d_new = t;
    iter++;
  } while ((delta > 1e-5f) && (iter < 50));
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 1;}

  cudaMemcpy(pr, d_old, sizeof(float) * g.nodes, cudaMemcpyDeviceToHost);
  double s = 0.0;
  for (int v = 0; v < g.nodes; v++) s += pr[v];
  printf("%d iterations, last change %g, sum %f\n", iter, delta, s);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_old); cudaFree(d_new); cudaFree(d_delta);
  free(pr); free(g.nindex); free(g.nlist);
  return 0;
}
