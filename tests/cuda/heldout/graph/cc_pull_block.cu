// Connected components by label propagation in pull style with one thread block per
// vertex: the threads stride over the adjacency list and the minimum label is found with
// a shared-memory tree reduction.  Labels are double buffered (Jacobi iteration).
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
  if (f == NULL) {fprintf(stderr, "ERROR: could not open %s\n", fname); exit(-1);}
  if (fread(&g.nodes, sizeof(int), 1, f) != 1) {fprintf(stderr, "ERROR: read\n"); exit(-1);}
  if (fread(&g.edges, sizeof(int), 1, f) != 1) {fprintf(stderr, "ERROR: read\n"); exit(-1);}
  if (g.nodes < 1 || g.edges < 0) {fprintf(stderr, "ERROR: header\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (g.edges + 1));
  g.eweight = NULL;
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) {fprintf(stderr, "ERROR: read\n"); exit(-1);}
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) {fprintf(stderr, "ERROR: read\n"); exit(-1);}
  fclose(f);
  return g;
}

// star-of-paths: a few hubs with very long adjacency lists, plus paths hanging off them
static ECLgraph hubGraph(const int hubs, const int spokes)
{
  ECLgraph g;
  g.nodes = hubs * (spokes + 1);
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * (4 * g.nodes));
  g.eweight = NULL;
  int e = 0;
  for (int h = 0; h < hubs; h++) {
    const int hub = h * (spokes + 1);
    g.nindex[hub] = e;
    for (int s = 1; s <= spokes; s += 2) g.nlist[e++] = hub + s;  // hub touches every other spoke
    for (int s = 1; s <= spokes; s++) {
      const int v = hub + s;
      g.nindex[v] = e;
      if (s % 2 == 1) g.nlist[e++] = hub;
      if (s > 1) g.nlist[e++] = v - 1;
      if (s < spokes) g.nlist[e++] = v + 1;
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

__global__ void cc_pull(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ lab_in, int* const __restrict__ lab_out, int* const __restrict__ changed)
{
  __shared__ int smin[ThreadsPerBlock];
  const int tid = threadIdx.x;

  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {
    int m = lab_in[v];
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int e = beg + tid; e < end; e += blockDim.x) {
      m = min(m, lab_in[__ldg(&nlist[e])]);
    }
    smin[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (tid < s) smin[tid] = min(smin[tid], smin[tid + s]);
      __syncthreads();
    }
    if (tid == 0) {
      const int best = smin[0];
      lab_out[v] = best;
      if (best != lab_in[v]) atomicExch(changed, 1);
    }
  }
}

int main(int argc, char* argv[])
{
  ECLgraph g = (argc > 1) ? readECLgraph(argv[1]) : hubGraph(40, 5000);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int* label = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) label[v] = v;

  int *d_nindex, *d_nlist, *d_la, *d_lb, *d_changed;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * (g.edges + 1));
  cudaMalloc((void**)&d_la, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_lb, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_changed, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_la, label, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);

  const int blocks = (g.nodes < 65535) ? g.nodes : 65535;
  int changed;
  int iter = 0;
  do {
    cudaMemset(d_changed, 0, sizeof(int));
    cc_pull<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_la, d_lb, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = d_la; d_la = d_lb; d_lb = t;
    iter++;
  } while (changed);
  if (cudaGetLastError() != cudaSuccess) {fprintf(stderr, "CUDA failure\n"); exit(-1);}

  cudaMemcpy(label, d_la, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int comps = 0;
  for (int v = 0; v < g.nodes; v++) comps += (label[v] == v);
  printf("%d iterations, %d components\n", iter, comps);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_la); cudaFree(d_lb); cudaFree(d_changed);
  free(label); free(g.nindex); free(g.nlist);
  return 0;
}
