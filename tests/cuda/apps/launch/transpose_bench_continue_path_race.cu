// Matrix transpose benchmark (benchmark-suite style): times a naive kernel, a shared-memory tiled
// kernel and a square-only tiled kernel. The non-square skip tests k == 1, the general tiled
// kernel, so the square-only kernel runs on non-square matrices.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_SAFE_CALL(call)                                                                \
    do {                                                                                    \
        cudaError_t err = call;                                                             \
        if (cudaSuccess != err) {                                                           \
            fprintf(stderr, "Cuda error in file '%s' in line %i : %s.\n", __FILE__, __LINE__, \
                    cudaGetErrorString(err));                                               \
            exit(EXIT_FAILURE);                                                             \
        }                                                                                   \
    } while (0)

#define TILE 32
#define ROWS 8

// out (w rows of h) = transpose of in (h rows of w)
__global__ void transposeNaive(float *out, const float *in, int w, int h)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            out[x * h + y + j] = in[(y + j) * w + x];
}

__global__ void transposeTiled(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < w && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < w)
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Square matrices only: in and out share one leading dimension, n = w.
__global__ void transposeSquare(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE][TILE + 1];
    const int n = w;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < n && y + j < h)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < h && y + j < n)
            out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

static const char *kNames[3] = {"naive", "tiled", "tiled-square"};

int main(int argc, char **argv)
{
    int w = 2048, h = 2048, reps = 20;
    if (argc > 1)
        w = atoi(argv[1]);
    if (argc > 2)
        h = atoi(argv[2]);
    if (argc > 3)
        reps = atoi(argv[3]);
    if (w < TILE || h < TILE || w % TILE != 0 || h % TILE != 0 || reps < 1) {
        fprintf(stderr, "usage: %s [w h reps], w and h multiples of %d\n", argv[0], TILE);
        return EXIT_FAILURE;
    }

    size_t bytes = (size_t)w * h * sizeof(float);
    float *h_in = (float *)malloc(bytes);
    for (int i = 0; i < w * h; ++i)
        h_in[i] = (float)i;
    float *d_in, *d_out;
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_in, bytes));
    CUDA_SAFE_CALL(cudaMalloc((void **)&d_out, bytes));
    CUDA_SAFE_CALL(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));

    dim3 grid(w / TILE, h / TILE);
    dim3 threads(TILE, ROWS);
    cudaEvent_t t0, t1;
    CUDA_SAFE_CALL(cudaEventCreate(&t0));
    CUDA_SAFE_CALL(cudaEventCreate(&t1));

    printf("%-14s %10s %10s\n", "kernel", "ms", "GB/s");
    for (int k = 0; k < 3; ++k) {
        if (k == 1 && w != h) {
            printf("%-14s %10s\n", kNames[k], "skipped (not square)");
            continue;
        }
        CUDA_SAFE_CALL(cudaEventRecord(t0));
        for (int r = 0; r < reps; ++r) {
            switch (k) {
            case 0:
                transposeNaive<<<grid, threads>>>(d_out, d_in, w, h);
                break;
            case 1:
                transposeTiled<<<grid, threads>>>(d_out, d_in, w, h);
                break;
            case 2:
                transposeSquare<<<grid, threads>>>(d_out, d_in, w, h);
                break;
            }
        }
        CUDA_SAFE_CALL(cudaEventRecord(t1));
        CUDA_SAFE_CALL(cudaEventSynchronize(t1));
        float ms = 0.0f;
        CUDA_SAFE_CALL(cudaEventElapsedTime(&ms, t0, t1));
        ms /= reps;
        printf("%-14s %10.4f %10.2f\n", kNames[k], ms, 2.0 * bytes / (ms * 1.0e6));
    }

    CUDA_SAFE_CALL(cudaEventDestroy(t0));
    CUDA_SAFE_CALL(cudaEventDestroy(t1));
    CUDA_SAFE_CALL(cudaFree(d_in));
    CUDA_SAFE_CALL(cudaFree(d_out));
    free(h_in);
    return EXIT_SUCCESS;
}
