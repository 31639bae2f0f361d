// SSSP in pull style (Jacobi): every vertex recomputes its distance as the minimum over
// its in-neighbours of dist[n] + w.  One warp per vertex, min-reduction with shuffles.
// The graph is undirected with symmetric weights, so the out-list doubles as the in-list.
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

// torus with two extra long-range links per row
static ECLgraph makeTorus(const int w, const int h)
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
      int nb[4];
      nb[0] = ((r + h - 1) % h) * w + c;
      nb[1] = r * w + (c + w - 1) % w;
      nb[2] = r * w + (c + 1) % w;
      nb[3] = ((r + 1) % h) * w + c;
      g.nindex[v] = e;
      for (int k = 0; k < 4; k++) {
        const int u = nb[k];
        const int lo = (u < v) ? u : v;
        const int hi = (u < v) ? v : u;
        g.nlist[e] = u;
        g.eweight[e] = 1 + (lo * 131 + hi * 31) % 97;
        e++;
      }
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __global__ void sssp_pull(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ eweight, const int* const __restrict__ dcur, int* const __restrict__ dnext, int* const __restrict__ changed)
{
  const int lane = threadIdx.x & (WS - 1);
  const int gw = (blockIdx.x * blockDim.x + threadIdx.x) / WS;
  const int nw = (gridDim.x * blockDim.x) / WS;

  for (int v = gw; v < nodes; v += nw) {
    const int own = dcur[v];
    int best = own;
    const int beg = __ldg(&nindex[v]);
    const int end = __ldg(&nindex[v + 1]);
    for (int e = beg + lane; e < end; e += WS) {
      const int dn = dcur[__ldg(&nlist[e])];
      if (dn != INT_MAX) best = min(best, dn + __ldg(&eweight[e]));
    }
    for (int off = WS / 2; off > 0; off /= 2) {
      best = min(best, __shfl_xor_sync(0xffffffff, best, off));
    }
    if (lane == 0) {
      dnext[v] = best;
      if (best < own) atomicOr(changed, 1);
    }
  }
}

int main(int argc, char* argv[])
{
  const int w = 800, h = 600;
  ECLgraph g = makeTorus(w, h);
  printf("torus %dx%d, %d edges\n", w, h, g.edges);

  int* dist = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) dist[v] = INT_MAX;
  dist[0] = 0;

  int *d_nindex, *d_nlist, *d_eweight, *d_da, *d_db, *d_changed;
  cudaMalloc(&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc(&d_nlist, sizeof(int) * g.edges);
  cudaMalloc(&d_eweight, sizeof(int) * g.edges);
  cudaMalloc(&d_da, sizeof(int) * g.nodes);
  cudaMalloc(&d_db, sizeof(int) * g.nodes);
  cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_eweight, g.eweight, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_da, dist, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);

  const int warpsPerBlock = ThreadsPerBlock / WS;
  const int blocks = (g.nodes + warpsPerBlock - 1) / warpsPerBlock;
  int changed = 1;
  int iters = 0;
  while (changed) {
    cudaMemset(d_changed, 0, sizeof(int));
    sssp_pull<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_eweight, d_da, d_db, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = d_da; d_da = d_db; d_db = t;
    iters++;
  }
  if (cudaGetLastError() != cudaSuccess) {fprintf(stderr, "kernel failed\n"); return 1;}

  cudaMemcpy(dist, d_da, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int maxd = 0;
  for (int v = 0; v < g.nodes; v++) if (dist[v] > maxd) maxd = dist[v];
  printf("%d iterations, eccentricity of vertex 0: %d\n", iters, maxd);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_eweight);
  cudaFree(d_da); cudaFree(d_db); cudaFree(d_changed);
  free(dist); free(g.nindex); free(g.nlist); free(g.eweight);
  return 0;
}
