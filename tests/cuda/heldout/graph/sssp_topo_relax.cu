// Bellman-Ford style SSSP, topology driven, push, persistent grid-stride loop over the
// vertices.  The host relaunches until no distance changes.
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
  if (f == NULL) {fprintf(stderr, "ERROR: could not open file %s\n", fname); exit(-1);}
  int cnt = fread(&g.nodes, sizeof(g.nodes), 1, f);
  cnt += fread(&g.edges, sizeof(g.edges), 1, f);
  if ((cnt != 2) || (g.nodes < 1) || (g.edges < 1)) {fprintf(stderr, "ERROR: bad input\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * g.edges);
  g.eweight = (int*)malloc(sizeof(int) * g.edges);
  cnt = fread(g.nindex, sizeof(int), g.nodes + 1, f);
  cnt += fread(g.nlist, sizeof(int), g.edges, f);
  if (cnt != g.nodes + 1 + g.edges) {fprintf(stderr, "ERROR: failed to read graph\n"); exit(-1);}
  if (fread(g.eweight, sizeof(int), g.edges, f) != (size_t)g.edges) {
    for (int i = 0; i < g.edges; i++) g.eweight[i] = 1;
  }
  fclose(f);
  return g;
}

static __global__ void sssp_topo(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ eweight, int* const __restrict__ dist, int* const __restrict__ changed)
{
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nodes; v += stride) {
    const int dv = dist[v];
    if (dv != INT_MAX) {
      const int beg = __ldg(&nindex[v]);
      const int end = __ldg(&nindex[v + 1]);
      for (int i = beg; i < end; i++) {
        const int n = __ldg(&nlist[i]);
        const int nd = dv + __ldg(&eweight[i]);
        if (nd < dist[n]) {
          dist[n] = nd;
          atomicExch(changed, 1);
        }
      }
    }
  }
}

int main(int argc, char* argv[])
{
  if (argc != 2) {fprintf(stderr, "USAGE: %s input_file\n", argv[0]); exit(-1);}
  ECLgraph g = readECLgraph(argv[1]);
  printf("input: %s, nodes: %d, edges: %d\n", argv[1], g.nodes, g.edges);

  int* dist = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) dist[v] = INT_MAX;
  dist[0] = 0;

  int *d_nindex, *d_nlist, *d_eweight, *d_dist, *d_changed;
  if (cudaSuccess != cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1))) exit(-1);
  if (cudaSuccess != cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges)) exit(-1);
  if (cudaSuccess != cudaMalloc((void**)&d_eweight, sizeof(int) * g.edges)) exit(-1);
  if (cudaSuccess != cudaMalloc((void**)&d_dist, sizeof(int) * g.nodes)) exit(-1);
  if (cudaSuccess != cudaMalloc((void**)&d_changed, sizeof(int))) exit(-1);
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_eweight, g.eweight, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dist, dist, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);

  cudaDeviceProp deviceProp;
  cudaGetDeviceProperties(&deviceProp, 0);
  const int SMs = deviceProp.multiProcessorCount;
  const int mTSM = deviceProp.maxThreadsPerMultiProcessor;
  const int blocks = SMs * mTSM / ThreadsPerBlock;

  int changed;
  int iter = 0;
  do {
    changed = 0;
    cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice);
    sssp_topo<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_eweight, d_dist, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    iter++;
  } while (changed);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); exit(-1);}

  cudaMemcpy(dist, d_dist, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int reached = 0;
  for (int v = 0; v < g.nodes; v++) reached += (dist[v] != INT_MAX);
  printf("iterations: %d, reached: %d\n", iter, reached);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_eweight); cudaFree(d_dist); cudaFree(d_changed);
  free(dist); free(g.nindex); free(g.nlist); free(g.eweight);
  return 0;
}
