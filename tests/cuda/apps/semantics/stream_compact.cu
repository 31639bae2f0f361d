// Stream compaction of the non-zero elements of an array (unordered), the way sparse and graph
// code does it when the order of the output does not matter: a grid-stride loop and a global
// atomic counter.
#include <cuda_runtime.h>

__global__ void compact_nonzero(const float *in, int n, float *out, int *out_idx,
                                unsigned int *out_count)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        if (v != 0.0f) {
            unsigned int slot = atomicAdd(out_count, 1u);
            out[slot] = v;
            out_idx[slot] = i;
        }
    }
}

int main()
{
    int n = 1 << 22;
    float *in, *out;
    int *idx;
    unsigned int *count;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&idx, n * sizeof(int));
    cudaMalloc(&count, sizeof(unsigned int));
    cudaMemset(count, 0, sizeof(unsigned int));
    compact_nonzero<<<120, 256>>>(in, n, out, idx, count);
    cudaDeviceSynchronize();
    return 0;
}
