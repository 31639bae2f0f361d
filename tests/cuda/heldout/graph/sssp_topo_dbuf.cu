// Bellman-Ford style SSSP, topology driven, push, one thread per vertex.
// Distances of the previous round are read from one buffer and relaxed with atomicMin
// into the other; the host copies the new distances back after every round.
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
  if (f == NULL) {fprintf(stderr, "could not open %s\n", fname); exit(-1);}
  if (fread(&g.nodes, sizeof(int), 1, f) != 1) exit(-1);
  if (fread(&g.edges, sizeof(int), 1, f) != 1) exit(-1);
  if ((g.nodes < 1) || (g.edges < 1)) {fprintf(stderr, "empty graph\n"); exit(-1);}
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * g.edges);
  g.eweight = (int*)malloc(sizeof(int) * g.edges);
  if (fread(g.nindex, sizeof(int), g.nodes + 1, f) != (size_t)(g.nodes + 1)) exit(-1);
  if (fread(g.nlist, sizeof(int), g.edges, f) != (size_t)g.edges) exit(-1);
  if (fread(g.eweight, sizeof(int), g.edges, f) != (size_t)g.edges) {
    // unweighted file: synthesise symmetric weights
    for (int v = 0; v < g.nodes; v++) {
      for (int i = g.nindex[v]; i < g.nindex[v + 1]; i++) {
        g.eweight[i] = 1 + ((v ^ g.nlist[i]) * 37) % 64;
      }
    }
  }
  fclose(f);
  return g;
}

static ECLgraph weightedGrid(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 4 * g.nodes);
  g.eweight = (int*)malloc(sizeof(int) * 4 * g.nodes);
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
  for (int v = 0; v < g.nodes; v++) {
    for (int i = g.nindex[v]; i < g.nindex[v + 1]; i++) {
      g.eweight[i] = 1 + ((v ^ g.nlist[i]) * 37) % 64;
    }
  }
  return g;
}

__global__ void sssp_relax(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ eweight, const int* const __restrict__ dist_in, int* const __restrict__ dist_out, int* const __restrict__ changed)
{
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nodes) {
    const int dv = dist_in[v];
    if (dv != INT_MAX) {
      const int beg = __ldg(nindex + v);
      const int end = __ldg(nindex + v + 1);
      for (int i = beg; i < end; i++) {
        const int n = __ldg(nlist + i);
        const int nd = dv + __ldg(eweight + i);
        if (nd < dist_in[n]) {
          if (atomicMin(&dist_out[n], nd) > nd) {
            atomicExch(changed, 1);
          }
        }
      }
    }
  }
}

int main(int argc, char* argv[])
{
  ECLgraph g;
  if (argc > 1) g = readECLgraph(argv[1]);
  else g = weightedGrid(512, 384);
  printf("nodes: %d, edges: %d\n", g.nodes, g.edges);
  const int source = 0;

  int* dist = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) dist[v] = INT_MAX;
  dist[source] = 0;

  int *d_nindex, *d_nlist, *d_eweight, *d_dold, *d_dnew, *d_changed;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_eweight, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_dold, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_dnew, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_changed, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_eweight, g.eweight, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dold, dist, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_dnew, dist, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  int rounds = 0;
  int changed;
  do {
    cudaMemset(d_changed, 0, sizeof(int));
    sssp_relax<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_eweight, d_dold, d_dnew, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(d_dold, d_dnew, sizeof(int) * g.nodes, cudaMemcpyDeviceToDevice);
    rounds++;
  } while (changed);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "error: %s\n", cudaGetErrorString(e)); exit(-1);}

  cudaMemcpy(dist, d_dold, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  long long sum = 0;
  int maxd = 0;
  for (int v = 0; v < g.nodes; v++) {
    if (dist[v] != INT_MAX) {
      sum += dist[v];
      if (dist[v] > maxd) maxd = dist[v];
    }
  }
  printf("rounds: %d, max dist: %d, sum: %lld\n", rounds, maxd, sum);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_eweight);
  cudaFree(d_dold); cudaFree(d_dnew); cudaFree(d_changed);
  free(dist); free(g.nindex); free(g.nlist); free(g.eweight);
  return 0;
}
