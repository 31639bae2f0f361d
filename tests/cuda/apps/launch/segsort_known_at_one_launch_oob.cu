// Segmented sort benchmark: every segment of `seg` keys is sorted by one block with an odd-even
// transposition sort in shared memory; longer segments are sorted in kChunk-key pieces and merged
// on the host. kChunk was raised to 2048, but the kernel's shared buffer still holds 1024 keys.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t e = (call);                                                      \
        if (e != cudaSuccess) {                                                      \
            fprintf(stderr, "%s failed: %s (line %d)\n", #call, cudaGetErrorString(e), \
                    __LINE__);                                                       \
            exit(EXIT_FAILURE);                                                      \
        }                                                                            \
    } while (0)

#define MAX_SEG 1024
#define SORT_THREADS 512

static const int kChunk = 2048; // keys one block sorts (raised for larger GPUs)

// Bottom-up merge of the sorted kChunk-key pieces of one segment, on the host.
static void mergePieces(float *keys, float *tmp, int len, int piece)
{
    for (int width = piece; width < len; width *= 2) {
        for (int lo = 0; lo < len; lo += 2 * width) {
            int mid = lo + width < len ? lo + width : len;
            int hi = lo + 2 * width < len ? lo + 2 * width : len;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = keys[a] <= keys[b] ? keys[a++] : keys[b++];
            while (a < mid)
                tmp[k++] = keys[a++];
            while (b < hi)
                tmp[k++] = keys[b++];
        }
        memcpy(keys, tmp, len * sizeof(float));
    }
}

__global__ void sortShared(float *data, int n)
{
    __shared__ float s[MAX_SEG];
    const int base = blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i] = data[base + i];
    __syncthreads();
    for (int phase = 0; phase < n; ++phase) {
        for (int i = 2 * threadIdx.x + (phase & 1); i + 1 < n; i += 2 * blockDim.x) {
            float a = s[i];
            float b = s[i + 1];
            if (a > b) {
                s[i] = b;
                s[i + 1] = a;
            }
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        data[base + i] = s[i];
}

int main(int argc, char **argv)
{
    int numSegs = 256, seg = 1000;
    if (argc > 1)
        numSegs = atoi(argv[1]);
    if (argc > 2)
        seg = atoi(argv[2]);
    if (numSegs <= 0 || seg <= 0) {
        fprintf(stderr, "bad problem size: %d segments of %d keys\n", numSegs, seg);
        exit(EXIT_FAILURE);
    }
    if (seg > kChunk && seg % kChunk != 0) {
        fprintf(stderr, "long segments must be a multiple of %d keys\n", kChunk);
        exit(EXIT_FAILURE);
    }
    const int total = numSegs * seg;

    float *h = (float *)malloc(total * sizeof(float));
    float *tmp = (float *)malloc(seg * sizeof(float));
    for (int i = 0; i < total; ++i)
        h[i] = (float)rand() / RAND_MAX;

    float *d_keys;
    CHECK(cudaMalloc(&d_keys, total * sizeof(float)));
    CHECK(cudaMemcpy(d_keys, h, total * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    if (seg <= kChunk)
        sortShared<<<numSegs, SORT_THREADS>>>(d_keys, seg);
    else
        sortShared<<<total / kChunk, SORT_THREADS>>>(d_keys, kChunk);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    CHECK(cudaMemcpy(h, d_keys, total * sizeof(float), cudaMemcpyDeviceToHost));
    int unsorted = 0;
    for (int s0 = 0; s0 < total; s0 += seg) {
        if (seg > kChunk)
            mergePieces(h + s0, tmp, seg, kChunk);
        for (int i = s0 + 1; i < s0 + seg; ++i)
            if (h[i - 1] > h[i]) {
                ++unsorted;
                break;
            }
    }
    printf("segsort: %d x %d keys in %.3f ms, %d segment(s) out of order\n", numSegs, seg, ms, unsorted);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_keys));
    free(h);
    free(tmp);
    return unsorted ? EXIT_FAILURE : EXIT_SUCCESS;
}
