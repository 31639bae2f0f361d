// PageRank, pull style, one thread block per vertex (for graphs with very high degrees).
// The threads stride over the adjacency list; the partial sums are reduced in shared
// memory down to 64 values and finished by warp 0 with shuffles.
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

// dense-ish graph: every vertex is connected to all vertices at distance 1..k on a ring
static ECLgraph circulant(const int n, const int k)
{
  ECLgraph g;
  g.nodes = n;
  g.edges = n * 2 * k;
  g.nindex = (int*)malloc(sizeof(int) * (n + 1));
  g.nlist = (int*)malloc(sizeof(int) * g.edges);
  g.eweight = NULL;
  for (int v = 0; v < n; v++) {
    g.nindex[v] = v * 2 * k;
    int e = g.nindex[v];
    for (int d = 1; d <= k; d++) {
      g.nlist[e++] = (v + d) % n;
      g.nlist[e++] = (v - d + n) % n;
    }
  }
  g.nindex[n] = g.edges;
  return g;
}

__global__ void pr_block(const int nodes, const int* const __restrict__ nindex, const int* const __restrict__ nlist, const float* const __restrict__ pr_in, float* const __restrict__ pr_out, float* const __restrict__ err, const float base, const float damp)
{
  __shared__ float ssum[ThreadsPerBlock];
  const int tid = threadIdx.x;
  float acc = 0.0f;

  for (int v = blockIdx.x; v < nodes; v += gridDim.x) {
    float sum = 0.0f;
    const int beg = nindex[v];
    const int end = nindex[v + 1];
    for (int e = beg + tid; e < end; e += blockDim.x) {
      const int n = nlist[e];
      sum += pr_in[n] / (float)(nindex[n + 1] - nindex[n]);
    }
    ssum[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > WS; s /= 2) {
      if (tid < s) ssum[tid] += ssum[tid + s];
      __syncthreads();
    }
    if (tid < WS) {
      float x = ssum[tid] + ssum[tid + WS];
      for (int off = WS / 2; off > 0; off /= 2) x += __shfl_down_sync(0xffffffff, x, off);
      if (tid == 0) {
        const float val = base + damp * x;
        pr_out[v] = val;
        acc += fabsf(val - pr_in[v]);
      }
    }
    __syncthreads();
  }
  if (tid == 0) atomicAdd(err, acc);
}

int main(int argc, char* argv[])
{
  const int n = 20000;
  const int k = (argc > 1) ? atoi(argv[1]) : 600;
  if ((k < 1) || (2 * k >= n)) {fprintf(stderr, "bad k\n"); return 1;}
  ECLgraph g = circulant(n, k);
  printf("%d nodes, %d edges\n", g.nodes, g.edges);

  float* pr = (float*)malloc(sizeof(float) * g.nodes);
  for (int v = 0; v < g.nodes; v++) pr[v] = (v % 7 == 0) ? 2.0f / g.nodes : 0.5f / g.nodes;
  const float damp = 0.85f;
  const float base = (1.0f - damp) / g.nodes;

  int *d_nindex, *d_nlist;
  float *d_in, *d_out, *d_err;
  cudaMalloc((void**)&d_nindex, sizeof(int) * (g.nodes + 1));
  cudaMalloc((void**)&d_nlist, sizeof(int) * g.edges);
  cudaMalloc((void**)&d_in, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_out, sizeof(float) * g.nodes);
  cudaMalloc((void**)&d_err, sizeof(float));
  cudaMemcpy(d_nindex, g.nindex, sizeof(int) * (g.nodes + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(d_nlist, g.nlist, sizeof(int) * g.edges, cudaMemcpyHostToDevice);
  cudaMemcpy(d_in, pr, sizeof(float) * g.nodes, cudaMemcpyHostToDevice);

  const int blocks = 1024;
  float err;
  int iter = 0;
  do {
    cudaMemset(d_err, 0, sizeof(float));
    pr_block<<<blocks, ThreadsPerBlock>>>(g.nodes, d_nindex, d_nlist, d_in, d_out, d_err, base, damp);
    cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    float* t = d_in; d_in = d_out; d_out = t;
    iter++;
  } while ((err > 1e-6f) && (iter < 100));
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e)); return 1;}

  cudaMemcpy(pr, d_in, sizeof(float) * g.nodes, cudaMemcpyDeviceToHost);
  float lo = pr[0], hi = pr[0];
  for (int v = 1; v < g.nodes; v++) {
    lo = fminf(lo, pr[v]);
    hi = fmaxf(hi, pr[v]);
  }
  printf("%d iterations, error %g, rank range [%g, %g]\n", iter, err, lo, hi);

  cudaFree(d_nindex); cudaFree(d_nlist); cudaFree(d_in); cudaFree(d_out); cudaFree(d_err);
  free(pr); free(g.nindex); free(g.nlist);
  return 0;
}
