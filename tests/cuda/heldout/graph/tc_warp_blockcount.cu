// Triangle counting, one warp per vertex.  Lanes stride over the neighbours v > u and merge
// the two sorted lists; the warp sum (shuffles) is collected in a per-block counter in
// shared memory, which is added to the global total once per block.
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

// triangulated grid plus the anti-diagonals of every third cell (sorted lists)
static ECLgraph meshGraph(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 8 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int r = 0; r < h; r++) {
    for (int c = 0; c < w; c++) {
      const int v = r * w + c;
      g.nindex[v] = e;
      if ((r > 0) && (c > 0)) g.nlist[e++] = v - w - 1;
      if (r > 0) g.nlist[e++] = v - w;
      if ((r > 0) && (c < w - 1) && (((r - 1) * w + c) % 3 == 0)) g.nlist[e++] = v - w + 1;
      if (c > 0) g.nlist[e++] = v - 1;
      if (c < w - 1) g.nlist[e++] = v + 1;
      if ((r < h - 1) && (c > 0) && ((r * w + c - 1) % 3 == 0)) g.nlist[e++] = v + w - 1;
      if (r < h - 1) g.nlist[e++] = v + w;
      if ((r < h - 1) && (c < w - 1)) g.nlist[e++] = v + w + 1;
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

static __global__ void tc_kernel(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, unsigned long long* const __restrict__ total)
{
  __shared__ unsigned long long bcount;
  const int lane = threadIdx.x % WS;
  const int warp = (threadIdx.x + blockIdx.x * blockDim.x) / WS;
  const int warps = (gridDim.x * blockDim.x) / WS;

  if (threadIdx.x == 0) bcount = 0;
  __syncthreads();

  for (int u = warp; u < nodes; u += warps) {
    const int ub = nindex[u];
    const int ue = nindex[u + 1];
    unsigned long long c = 0;
    for (int i = ub + lane; i < ue; i += WS) {
      const int v = nlist[i];
      if (v > u) {
        int a = i + 1, b = nindex[v];
        const int be = nindex[v + 1];
        while (a < ue && b < be) {
          const int x = nlist[a], y = nlist[b];
          if (x == y) c++;
          if (x <= y) a++;
          if (x >= y) b++;
        }
      }
    }
    c += __shfl_xor_sync(0xffffffff, c, 16);
    c += __shfl_xor_sync(0xffffffff, c, 8);
    c += __shfl_xor_sync(0xffffffff, c, 4);
    c += __shfl_xor_sync(0xffffffff, c, 2);
    c += __shfl_xor_sync(0xffffffff, c, 1);
    if (lane == 0) bcount += c;
  }

  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(total, bcount);
}

int main()
{
  const int w = 3001, h = 1999;
  ECLgraph g = meshGraph(w, h);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int *d_nindex, *d_nlist;
  unsigned long long* d_total;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));

  const int blocks = 240;
  tc_kernel<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_total);
  unsigned long long total = 0;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 1;}
  printf("%llu triangles\n", total);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_total);
  free(g.nindex); free(g.nlist);
  return 0;
}
