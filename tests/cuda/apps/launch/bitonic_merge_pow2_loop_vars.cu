// Bitonic sort of 2^k keys (textbook style): a shared-memory kernel sorts 1024-key chunks in
// alternating directions, then the host drives the global merge steps with a size/stride loop nest.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                                    \
    {                                                                                       \
        cudaError_t status = (expr);                                                        \
        if (status != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status)); \
            exit(1);                                                                        \
        }                                                                                   \
    }

const unsigned SHARED_KEYS = 1024;
const unsigned SORT_THREADS = SHARED_KEYS / 2;
const unsigned MERGE_THREADS = 256;

// One compare-exchange per thread: thread i handles the pair (pos, pos + stride).
__global__ void bitonicMergeStep(unsigned *keys, unsigned n, unsigned size, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned pos = 2 * i - (i & (stride - 1));
    bool ascending = (pos & size) == 0;
    unsigned a = keys[pos];
    unsigned b = keys[pos + stride];
    if ((a > b) == ascending) {
        keys[pos] = b;
        keys[pos + stride] = a;
    }
}

__global__ void bitonicSortShared(unsigned *keys)
{
    __shared__ unsigned s[SHARED_KEYS];
    unsigned base = blockIdx.x * SHARED_KEYS;
    unsigned t = threadIdx.x;
    s[t] = keys[base + t];
    s[t + SORT_THREADS] = keys[base + t + SORT_THREADS];
    for (unsigned size = 2; size <= SHARED_KEYS; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * t - (t & (stride - 1));
            bool ascending = ((base + pos) & size) == 0;
            unsigned a = s[pos];
            unsigned b = s[pos + stride];
            if ((a > b) == ascending) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    keys[base + t] = s[t];
    keys[base + t + SORT_THREADS] = s[t + SORT_THREADS];
}

int main(int argc, char **argv)
{
    unsigned log2n = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
    if (log2n < 11 || log2n > 28) {
        fprintf(stderr, "log2(n) must be between 11 and 28\n");
        return 1;
    }
    unsigned n = 1u << log2n;

    unsigned *h_keys = (unsigned *)malloc(n * sizeof(unsigned));
    for (unsigned i = 0; i < n; ++i)
        h_keys[i] = (unsigned)rand();

    unsigned *d_keys;
    CUDA_CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_keys, h_keys, n * sizeof(unsigned), cudaMemcpyHostToDevice));

    bitonicSortShared<<<n / SHARED_KEYS, SORT_THREADS>>>(d_keys);
    CUDA_CHECK(cudaGetLastError());
    for (unsigned size = 2 * SHARED_KEYS; size <= n; size <<= 1) {
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            bitonicMergeStep<<<n / (2 * MERGE_THREADS), MERGE_THREADS>>>(d_keys, n, size, stride);
            CUDA_CHECK(cudaGetLastError());
        }
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_keys, d_keys, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned bad = 0;
    for (unsigned i = 1; i < n; ++i)
        bad += h_keys[i - 1] > h_keys[i];
    printf("%u keys, %s\n", n, bad ? "NOT sorted" : "sorted");

    CUDA_CHECK(cudaFree(d_keys));
    free(h_keys);
    return bad ? 1 : 0;
}
