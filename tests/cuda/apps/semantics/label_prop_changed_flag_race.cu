// Connected components by label propagation (graph-benchmark style), double-buffered labels and
// a block-local "changed" flag. Two authors set the flag: the min-label path with a plain store,
// the self-loop repair path with atomicExch; the repair path stores 2. Thread 0 publishes it after a barrier.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void propagate(const int *row_ptr, const int *cols, const int *label_in, int *label_out,
                          int n, int *any_change)
{
    __shared__ int changed;
    if (threadIdx.x == 0)
        changed = 0;
    __syncthreads();
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        int best = label_in[v];
        for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
            int u = cols[e];
            if (u == v) {
                atomicExch(&changed, 2); // a self loop: "2" meant "retry", but thread 0 cannot tell
            } else if (label_in[u] < best) {
                best = label_in[u];
                changed = 1;
            }
        }
        label_out[v] = best;
    }
    __syncthreads();
    if (threadIdx.x == 0 && changed)
        atomicOr(any_change, 1);
}

int main()
{
    const int n = 1 << 16;
    int *row_ptr, *cols, *a, *b, *flag;
    cudaMalloc(&row_ptr, (n + 1) * sizeof(int));
    cudaMalloc(&cols, 8 * n * sizeof(int));
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    int h = 1;
    while (h) {
        cudaMemset(flag, 0, sizeof(int));
        propagate<<<n / 256, 256>>>(row_ptr, cols, a, b, n, flag);
        cudaMemcpy(&h, flag, sizeof(int), cudaMemcpyDeviceToHost);
        int *t = a; a = b; b = t;
    }
    return 0;
}
