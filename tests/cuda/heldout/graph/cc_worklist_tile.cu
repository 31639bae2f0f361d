// Connected components, data-driven label propagation.  Each block copies a tile of the
// input worklist into shared memory and its warps then process the tile entries, one warp
// per vertex (lanes stride over the neighbours).  A vertex whose label dropped is pushed
// onto the output worklist at most once per round.
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

// grid with some edges removed, so that it falls apart into several components
static ECLgraph brokenGrid(const int w, const int h)
{
  ECLgraph g;
  g.nodes = w * h;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 4 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int v = 0; v < g.nodes; v++) {
    const int r = v / w, c = v % w;
    g.nindex[v] = e;
    if ((r > 0) && (r % 64 != 0)) g.nlist[e++] = v - w;
    if ((c > 0) && (c % 50 != 0)) g.nlist[e++] = v - 1;
    if ((c < w - 1) && ((c + 1) % 50 != 0)) g.nlist[e++] = v + 1;
    if ((r < h - 1) && ((r + 1) % 64 != 0)) g.nlist[e++] = v + w;
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

__global__ void cc_round(const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ label, const int* const __restrict__ wl_in, const int in_size, int* const __restrict__ wl_out, int* const __restrict__ out_size, int* const __restrict__ stamp, const int iter)
{
  __shared__ int tile[ThreadsPerBlock];
  const int lane = threadIdx.x % WS;
  const int warp = threadIdx.x / WS;
  const int warps = blockDim.x / WS;

  for (int start = blockIdx.x * blockDim.x; start < in_size; start += gridDim.x * blockDim.x) {
    const int i = start + threadIdx.x;
    if (i < in_size) tile[threadIdx.x] = wl_in[i];
    const int cnt = min(in_size - start, (int)blockDim.x);

    for (int k = warp; k < cnt; k += warps) {
      const int v = tile[k];
      int lv = 0;
      if (lane == 0) lv = atomicAdd(&label[v], 0);
      lv = __shfl_sync(0xffffffff, lv, 0);
      const int beg = __ldg(&nindex[v]);
      const int end = __ldg(&nindex[v + 1]);
      for (int e = beg + lane; e < end; e += WS) {
        const int n = __ldg(&nlist[e]);
        if (atomicMin(&label[n], lv) > lv) {
          if (atomicExch(&stamp[n], iter) != iter) {
            wl_out[atomicAdd(out_size, 1)] = n;
          }
        }
      }
    }
    __syncthreads();
  }
}

int main()
{
  const int w = 1000, h = 640;
  ECLgraph g = brokenGrid(w, h);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  int* label = (int*)malloc(sizeof(int) * g.nodes);
  int* wl = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) {
    label[v] = v;
    wl[v] = v;
  }

  int *d_nindex, *d_nlist, *d_label, *d_wl1, *d_wl2, *d_size, *d_stamp;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_label, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl1, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_wl2, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_size, sizeof(int));
  cudaMalloc((void**)&d_stamp, sizeof(int) * g.nodes);
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_label, label, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_wl1, wl, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemset(d_stamp, 0, sizeof(int) * g.nodes);

  const int blocks = 256;
  int size = g.nodes;
  int iter = 0;
  while (size > 0) {
    iter++;
    cudaMemset(d_size, 0, sizeof(int));
    cc_round<<<blocks, ThreadsPerBlock>>>(d_nindex, d_nlist, d_label, d_wl1, size, d_wl2, d_size, d_stamp, iter);
    cudaMemcpy(&size, d_size, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = d_wl1; d_wl1 = d_wl2; d_wl2 = t;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {fprintf(stderr, "%s\n", cudaGetErrorString(err)); return 1;}

  cudaMemcpy(label, d_label, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int comps = 0;
  for (int v = 0; v < g.nodes; v++) comps += (label[v] == v);
  printf("%d rounds, %d components\n", iter, comps);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_label);
  cudaFree(d_wl1); cudaFree(d_wl2); cudaFree(d_size); cudaFree(d_stamp);
  free(label); free(wl); free(g.nindex); free(g.nlist);
  return 0;
}
