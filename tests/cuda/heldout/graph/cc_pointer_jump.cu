// Connected components with hooking and pointer jumping.  parent[v] <= v always holds,
// so the parent pointers form a forest whose roots are the component minima.
//   hook: for every edge (v,n) whose roots differ, the larger root is hooked below the
//         smaller one (atomicMin into a second copy of the parent array);
//   jump: parent[v] = parent[parent[v]], double buffered, until every vertex points at
//         its root.
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

static void CheckCuda(const int line)
{
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error %d on line %d: %s\n", e, line, cudaGetErrorString(e));
    exit(-1);
  }
}

// disjoint union of grids of different widths: component count is known
static ECLgraph gridForest(const int count, const int side)
{
  ECLgraph g;
  g.nodes = count * side * side;
  g.nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  g.nlist = (int*)malloc(sizeof(int) * 4 * g.nodes);
  g.eweight = NULL;
  int e = 0;
  for (int k = 0; k < count; k++) {
    const int off = k * side * side;
    for (int r = 0; r < side; r++) {
      for (int c = 0; c < side; c++) {
        const int v = off + r * side + c;
        g.nindex[v] = e;
        if (r > 0) g.nlist[e++] = v - side;
        if (c > 0) g.nlist[e++] = v - 1;
        if (c < side - 1) g.nlist[e++] = v + 1;
        if (r < side - 1) g.nlist[e++] = v + side;
      }
    }
  }
  g.nindex[g.nodes] = e;
  g.edges = e;
  return g;
}

// relabel the vertices with a random permutation so that minima are not in corners
static void shuffleGraph(ECLgraph& g)
{
  int* perm = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) perm[v] = v;
  for (int v = g.nodes - 1; v > 0; v--) {
    const int j = rand() % (v + 1);
    const int t = perm[v]; perm[v] = perm[j]; perm[j] = t;
  }
  int* deg = (int*)malloc(sizeof(int) * g.nodes);
  for (int v = 0; v < g.nodes; v++) deg[perm[v]] = g.nindex[v + 1] - g.nindex[v];
  int* nindex = (int*)malloc(sizeof(int) * (g.nodes + 1));
  nindex[0] = 0;
  for (int v = 0; v < g.nodes; v++) nindex[v + 1] = nindex[v] + deg[v];
  int* nlist = (int*)malloc(sizeof(int) * g.edges);
  for (int v = 0; v < g.nodes; v++) {
    int pos = nindex[perm[v]];
    for (int i = g.nindex[v]; i < g.nindex[v + 1]; i++) nlist[pos++] = perm[g.nlist[i]];
  }
  free(g.nindex); free(g.nlist); free(perm); free(deg);
  g.nindex = nindex;
  g.nlist = nlist;
}

static __global__ void init(const int nodes, int* const __restrict__ parent)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) parent[v] = v;
}

static __global__ void hook(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const int* const __restrict__ parent, int* const __restrict__ parent2, int* const __restrict__ changed)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) {
    const int pv = parent[v];
    for (int i = nindex[v]; i < nindex[v + 1]; i++) {
      const int pn = parent[nlist[i]];
      if (pn < pv) {
        if (atomicMin(&parent2[pv], pn) > pn) atomicExch(changed, 1);
      }
    }
  }
}

static __global__ void jump(const int nodes, const int* const __restrict__ pin, int* const __restrict__ pout, int* const __restrict__ again)
{
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  if (v < nodes) {
    const int p = pin[v];
    const int pp = pin[p];
    pout[v] = pp;
    if (pp != p) atomicExch(again, 1);
  }
}

int main(int argc, char* argv[])
{
  srand(1);
  const int comps = 50;
  const int side = 150;
  ECLgraph g = gridForest(comps, side);
  shuffleGraph(g);
  printf("%d nodes, %d edges, %d components\n", g.nodes, g.edges, comps);

  int *d_nindex, *d_nlist, *d_par, *d_tmp, *d_flag;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_par, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_tmp, sizeof(int) * g.nodes);
  cudaMalloc((void**)&d_flag, sizeof(int));
  CheckCuda(__LINE__);
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);

  const int blocks = (g.nodes + ThreadsPerBlock - 1) / ThreadsPerBlock;
  init<<<blocks, ThreadsPerBlock>>>(g.nodes, d_par);

  int changed, again, rounds = 0, jumps = 0;
  do {
    // hook: d_par -> d_tmp
    cudaMemcpy(d_tmp, d_par, sizeof(int) * g.nodes, cudaMemcpyDeviceToDevice);
    cudaMemset(d_flag, 0, sizeof(int));
    hook<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_par, d_tmp, d_flag);
    cudaMemcpy(&changed, d_flag, sizeof(int), cudaMemcpyDeviceToHost);
    // compress: alternate between the two buffers until nothing moves
    int* cur = d_tmp;
    int* nxt = d_par;
    do {
      cudaMemset(d_flag, 0, sizeof(int));
      jump<<<blocks, ThreadsPerBlock>>>(g.nodes, cur, nxt, d_flag);
      cudaMemcpy(&again, d_flag, sizeof(int), cudaMemcpyDeviceToHost);
      int* t = cur; cur = nxt; nxt = t;
      jumps++;
    } while (again);
    d_par = cur;
    d_tmp = nxt;
    rounds++;
  } while (changed);
  CheckCuda(__LINE__);

  int* parent = (int*)malloc(sizeof(int) * g.nodes);
  cudaMemcpy(parent, d_par, sizeof(int) * g.nodes, cudaMemcpyDeviceToHost);
  int roots = 0;
  for (int v = 0; v < g.nodes; v++) roots += (parent[v] == v);
  printf("%d hook rounds, %d jump launches, %d components found\n", rounds, jumps, roots);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_par); cudaFree(d_tmp); cudaFree(d_flag);
  free(parent); free(g.nindex); free(g.nlist);
  return 0;
}
