// Matrix transpose with diagonal block reordering, taking width and height separately. The
// bug: the reordering is a bijection only on a square grid of tiles, and nothing refuses a
// rectangular matrix: two blocks of one column then write the same output tile.
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
    const int width = argc > 1 ? atoi(argv[1]) : 1024;
    const int height = argc > 2 ? atoi(argv[2]) : 1024;
    if (width <= 0 || height <= 0 || width % TILE != 0 || height % TILE != 0 || width > 16384 ||
        height > 16384) {
        fprintf(stderr, "sizes must be positive multiples of %d, at most 16384\n", TILE);
        return EXIT_FAILURE;
    }
    size_t bytes = (size_t)width * height * sizeof(float);
    std::vector<float> h(width * height);
    for (int i = 0; i < width * height; ++i)
        h[i] = (float)i;
    float *d_in, *d_out;
    check(cudaMalloc(&d_in, bytes), "cudaMalloc");
    check(cudaMalloc(&d_out, bytes), "cudaMalloc");
    check(cudaMemcpy(d_in, h.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    dim3 grid(width / TILE, height / TILE), threads(TILE, ROWS);
    transposeDiagonalTiles<<<grid, threads>>>(d_out, d_in, width, height);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(h.data(), d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    int bad = 0;
    for (int r = 0; r < height && bad < 10; ++r)
        for (int c = 0; c < width; ++c)
            bad += h[r * width + c] != (float)(c * width + r);
    printf("%s\n", bad ? "FAILED" : "PASSED");
    cudaFree(d_in);
    cudaFree(d_out);
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
