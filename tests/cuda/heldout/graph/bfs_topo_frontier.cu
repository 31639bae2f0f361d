// Level-synchronous BFS, topology driven: one thread per vertex, every vertex is
// visited in every launch and checks whether it is on the current frontier.
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

static void CheckCuda(const int line)
{
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error %d on line %d: %s\n", e, line, cudaGetErrorString(e));
    exit(-1);
  }
}

// 4-neighbour grid, adjacency lists come out sorted
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

static __global__ void bfs_step(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, int* const __restrict__ level, const int* const __restrict__ front_in, int* const __restrict__ front_out, const int iter, int* const __restrict__ changed)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) {
    if (front_in[v]) {
      const int beg = __ldg(&nindex[v]);
      const int end = __ldg(&nindex[v + 1]);
      for (int i = beg; i < end; i++) {
        const int n = __ldg(&nlist[i]);
        if (atomicCAS(&level[n], INT_MAX, iter + 1) == INT_MAX) {
          front_out[n] = 1;
          atomicExch(changed, 1);
        }
      }
    }
  }
}

int main(int argc, char* argv[])
{
  int width = 640, height = 480;
  if (argc == 3) {
    width = atoi(argv[1]);
    height = atoi(argv[2]);
  }
  if (width < 1 || height < 1) {fprintf(stderr, "bad size\n"); exit(-1);}
  ECLgraph g = makeGrid(width, height);
  printf("grid %d x %d: %d nodes, %d edges\n", width, height, g.nodes, g.edges);
  const int source = 0;

  int* level = (int*)malloc(sizeof(int) * g.nodes);
  int* front = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) {
    level[v] = INT_MAX;
    front[v] = 0;
  }
  level[source] = 0;
  front[source] = 1;

  int *d_nindex, *d_nlist, *d_level, *d_fin, *d_fout, *d_changed;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_level, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_fin, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_fout, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_changed, sizeof(int));
  CheckCuda(__LINE__);
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_level, level, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_fin, front, sizeof(int) * g.nodes, cudaMemcpyHostToDevice);
  CheckCuda(__LINE__);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  int iter = 0;
  int changed;
  do {
    cudaMemset(d_changed, 0, sizeof(int));
    cudaMemset(d_fout, 0, sizeof(int) * g.nodes);
    bfs_step<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_level, d_fin, d_fout, iter, d_changed);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    int* tmp = d_fin;
    d_fin = d_fout;
    d_fout = tmp;
    iter++;
  } while (changed);
  CheckCuda(__LINE__);

  cudaMemcpy(level, d_level, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int reached = 0, maxlvl = 0;
  for (int v = 0; v < g.nodes; v++) {
    if (level[v] != INT_MAX) {
      reached++;
      if (level[v] > maxlvl) maxlvl = level[v];
    }
  }
  printf("iterations: %d, reached: %d, depth: %d (expected %d)\n", iter, reached, maxlvl, width + height - 2);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_level);
  cudaFree(d_fin); cudaFree(d_fout); cudaFree(d_changed);
  free(level); free(front); free(g.nindex); free(g.nlist);
  return 0;
}
