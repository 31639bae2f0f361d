// Bottom-up (pull) BFS with one warp per vertex: an unvisited vertex asks whether
// any of its neighbours is on the current frontier.  Persistent grid of warps.
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

__global__ void bfs_pull(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ level, const int* const __restrict__ front_in, int* const __restrict__ front_out, const int lvl, int* const __restrict__ changed)
{
  const int lane = threadIdx.x % WS;
  const int warp = (threadIdx.x + blockIdx.x * blockDim.x) / WS;
  const int warps = (gridDim.x * blockDim.x) / WS;

  for (int v = warp; v < nodes; v += warps) {
    const int lv = level[v];
    if (lv == INT_MAX) {
      const int beg = __ldg(&nindex[v]);
      const int end = __ldg(&nindex[v + 1]);
      bool found = false;
      for (int e = beg + lane; e < end; e += WS) {
        if (front_in[__ldg(&nlist[e])] != 0) {
          found = true;
          break;
        }
      }
      const unsigned vote = __ballot_sync(0xffffffff, found);
      __syncwarp();
      if ((vote != 0) && (lane == 0)) {
        level[v] = lvl + 1;
        front_out[v] = 1;
        atomicOr(changed, 1);
      }
    }
  }
}

int main(int argc, char* argv[])
{
  const int width = (argc > 1) ? atoi(argv[1]) : 1000;
  const int height = (argc > 2) ? atoi(argv[2]) : 700;
  if ((width < 1) || (height < 1)) {fprintf(stderr, "usage: %s [width height]\n", argv[0]); exit(-1);}
  ECLgraph g = makeGrid(width, height);
  const int source = (height / 2) * width + width / 2;

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int SMs = prop.multiProcessorCount;
  const int mTpSM = prop.maxThreadsPerMultiProcessor;
  const int blocks = SMs * (mTpSM / ThreadsPerBlock);
  printf("%d nodes, %d edges, %d blocks of %d threads\n", g.nodes, g.edges, blocks, ThreadsPerBlock);

  int* level = (int*)malloc(sizeof(int) * g.nodes);
  int* front = (int*)calloc(g.nodes, sizeof(int));
  for (int v = 0; v < g.nodes; v++) level[v] = INT_MAX;
  level[source] = 0;
  front[source] = 1;

  int *d_nindex, *d_nlist, *d_level, *d_front1, *d_front2, *d_changed;
  cudaMalloc(&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc(&d_nlist, sizeof(int) * g.edges);
  cudaMalloc(&d_level, sizeof(int) * g.nodes);
  cudaMalloc(&d_front1, sizeof(int) * g.nodes);
  cudaMalloc(&d_front2, sizeof(int) * g.nodes);
  cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_level, level, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_front1, front, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);

  int lvl = 0;
  int changed = 0;
  do {
    cudaMemset(d_changed, 0, sizeof(int));
    cudaMemset(d_front2, 0, sizeof(int) * g.nodes);
    bfs_pull<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_level, d_front1, d_front2, lvl, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    int* t = d_front1;
    d_front1 = d_front2;
    d_front2 = t;
    lvl++;
  } while (changed != 0);

  cudaMemcpy(level, d_level, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int v = 0; v < g.nodes; v++) {
    const int r = v / width, c = v % width;
    const int dr = r - height / 2, dc = c - width / 2;
    const int expect = (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
    if (level[v] != expect) bad++;
  }
  printf("%d levels, %d wrong\n", lvl, bad);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_level);
  cudaFree(d_front1); cudaFree(d_front2); cudaFree(d_changed);
  free(level); free(front); free(g.nindex); free(g.nlist);
  return 0;
}
