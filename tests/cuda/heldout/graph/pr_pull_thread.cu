// PageRank, pull style, one thread per vertex.  The L1 change of the ranks is reduced per
// block in shared memory and added to a global error with one atomicAdd per block; the host
// iterates until the error drops below a tolerance.
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
  if (f == NULL) {fprintf(stderr, "ERROR: could not open %s\n", fname); exit(-1);}
  if (fread(&g.nodes, sizeof(int), 1, f) != 1) exit(-1);
  if (fread(&g.edges, sizeof(int), 1, f) != 1) exit(-1);
  if ((g.nodes < 1) || (g.edges < 0)) exit(-1);
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) exit(-1);
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) exit(-1);
  fclose(f);
  return g;
}

// preferential-attachment style graph: vertex v links to 'k' earlier endpoints
static ECLgraph powerLawGraph(const int n, const int k)
{
  const int m = (n - 1) * k;
  int* ends = (int*)malloc(sizeof(int) * 2 * m);
  int* deg = (int*)calloc(n, sizeof(int));
  int cnt = 0;
  for (int v = 1; v < n; v++) {
    for (int j = 0; j < k; j++) {
      const int u = (cnt == 0) ? 0 : ends[rand() % cnt];
      ends[cnt++] = v;
      ends[cnt++] = (u == v) ? 0 : u;
    }
  }
  for (int i = 0; i < cnt; i++) deg[ends[i]]++;
  ECLgraph g;
  g.nodes = n;
  g.edges = cnt;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nlist = (int*)malloc(sizeof(int) * cnt);
  g.eweight = NULL;
  g.nindex[0] = 0;
  for (int v = 0; v < n; v++) g.nindex[v + 1] = g.nindex[v] + deg[v];
  for (int v = 0; v < n; v++) deg[v] = g.nindex[v];
  for (int i = 0; i < cnt; i += 2) {
    g.nlist[deg[ends[i]]++] = ends[i + 1];
    g.nlist[deg[ends[i + 1]]++] = ends[i];
  }
  free(ends); free(deg);
  return g;
}

static __global__ void pr_step(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const float* const __restrict__ pr_in, float* const __restrict__ pr_out, float* const __restrict__ err, const float base, const float damp)
{
  __shared__ float serr[ThreadsPerBlock];
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  float diff = 0.0f;
  if (v < nodes) {
    float sum = 0.0f;
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int i = beg; i < end; i++) {
      const int n = __ldg(&nlist[i]);
      const int deg = __ldg(&nindex[n + 1]) - __ldg(&nindex[n]);
      sum += pr_in[n] / (float)deg;
    }
    const float val = base + damp * sum;
    pr_out[v] = val;
    diff = fabsf(val - pr_in[v]);
  }
  serr[threadIdx.x] = diff;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) serr[threadIdx.x] += serr[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(err, serr[0]);
}

int main(int argc, char* argv[])
{
  srand(99);
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : powerLawGraph(300000, 4);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);
  const float damp = 0.85f;
  const float base = (1.0f - damp) / g.nodes;
  const float tol = 1e-4f;

  float* pr = (float*)malloc(sizeof(float) * g.nodes);
  for (int v = 0; v < g.nodes; v++) pr[v] = 1.0f / g.nodes;

  int *d_nindex, *d_nlist;
  float *d_pa, *d_pb, *d_err;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_pa, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_pb, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_err, sizeof(float));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_pa, pr, sizeof(float) * g.nodes, cudaMemcpyHostToDevice);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  float err;
  int iter = 0;
  do {
    cudaMemset(d_err, 0, sizeof(float));
    pr_step<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_pa, d_pb, d_err, base, damp);
    cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    float* t = d_pa; d_pa = d_pb; d_pb = t;
    iter++;
  } while ((err > tol) && (iter < 100));
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); exit(-1);}

  cudaMemcpy(pr, d_pa, sizeof(float) * g.nodes, cudaMemcpyDeviceToHost);
  int top = 0;
  for (int v = 1; v < g.nodes; v++) if (pr[v] > pr[top]) top = v;
  printf("%d iterations, error %e, top vertex %d (%e)\n", iter, err, top, pr[top]);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_pa); cudaFree(d_pb); cudaFree(d_err);
  free(pr); free(g.nindex); free(g.nlist);
  return 0;
}
