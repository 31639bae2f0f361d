// Matrix transpose with diagonal block reordering (blocks walk the tiles along diagonals to
// spread partition traffic). The reordering is a bijection only on a square grid of tiles, so
// the program refuses matrices that are not square.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        exit(EXIT_FAILURE);
    }
}

__global__ void transposeDiagonalTiles(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int by = blockIdx.x;
    int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
    int x = bx * TILE + threadIdx.x;
    int y = by * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * width + x];
    __syncthreads();
    x = by * TILE + threadIdx.x;
    y = bx * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        out[(y + r) * height + x] = tile[threadIdx.x][threadIdx.y + r];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n <= 0 || n % TILE != 0 || n > 16384) {
        fprintf(stderr, "size must be a positive multiple of %d, at most 16384\n", TILE);
        return EXIT_FAILURE;
    }
    size_t bytes = (size_t)n * n * sizeof(float);
    std::vector<float> h(n * n);
    for (int i = 0; i < n * n; ++i)
        h[i] = (float)i;
    float *d_in, *d_out;
    check(cudaMalloc(&d_in, bytes), "cudaMalloc");
    check(cudaMalloc(&d_out, bytes), "cudaMalloc");
    check(cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    dim3 grid(n / TILE, n / TILE), threads(TILE, ROWS);
    transposeDiagonalTiles<<<grid, threads>>>(d_out, d_in, n, n);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(h.data(), d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    int bad = 0;
    for (int r = 0; r < n && bad < 10; ++r)
        for (int c = 0; c < n; ++c)
            bad += h[r * n + c] != (float)(c * n + r);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    cudaFree(d_in);
    cudaFree(d_out);
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
