// Tiled transpose that scales every element by the maximum of its source row, staged through a
// shared struct whose members are arrays (the padded tile and the row maxima). Each thread
// carries its four elements in a register fragment, a local struct with an array member, which
// helpers fill and return; the per-block maxima go to global memory as an array of structs.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8                    // blockDim = (TILE, ROWS)
#define PER_THREAD (TILE / ROWS)  // rows each thread handles

struct Stage {
    float tile[TILE][TILE + 1];   // +1: no bank conflicts on the column reads
    float rowMax[TILE];
};

struct Frag {
    float v[PER_THREAD];
};

struct BlockStats {
    float rowMax[TILE];
    int rows;
};

__device__ void storeFrag(Stage &st, const Frag &f, int tx, int ty)
{
    for (int i = 0; i < PER_THREAD; ++i)
        st.tile[ty + i * ROWS][tx] = f.v[i];
}

__device__ Frag loadColumn(const Stage &st, int tx, int ty)
{
    Frag f;
    for (int i = 0; i < PER_THREAD; ++i)
        f.v[i] = st.tile[tx][ty + i * ROWS];
    return f;
}

__global__ void transposeScaled(const float *in, float *out, BlockStats *stats, int n)
{
    __shared__ Stage st;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;

    Frag f;
    for (int i = 0; i < PER_THREAD; ++i)
        f.v[i] = in[(by + ty + i * ROWS) * n + bx + tx];
    storeFrag(st, f, tx, ty);
    __syncthreads();

    // The first row of threads: lane tx scans tile row tx.
    if (ty == 0) {
        const float *row = st.tile[tx];
        float m = row[0];
        for (int c = 1; c < TILE; ++c)
            m = fmaxf(m, row[c]);
        st.rowMax[tx] = m;
        BlockStats &mine = stats[blockIdx.y * gridDim.x + blockIdx.x];
        mine.rowMax[tx] = m;
        if (tx == 0)
            mine.rows = TILE;
    }
    __syncthreads();   // the maxima are read by every row of threads below

    const Frag col = loadColumn(st, tx, ty);
    const float scale = 1.0f / st.rowMax[tx];
    for (int i = 0; i < PER_THREAD; ++i)
        out[(bx + ty + i * ROWS) * n + by + tx] = col.v[i] * scale;
}

int main()
{
    const int n = 1024;
    const size_t bytes = sizeof(float) * n * n;
    const int blocks = (n / TILE) * (n / TILE);
    float *in, *out;
    BlockStats *stats;
    cudaMalloc(&in, bytes);
    cudaMalloc(&out, bytes);
    cudaMalloc(&stats, sizeof(BlockStats) * blocks);
    float *h = (float *)malloc(bytes);
    for (int i = 0; i < n * n; ++i)
        h[i] = 1.0f + (i % 97);
    cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice);

    const dim3 block(TILE, ROWS);
    const dim3 grid(n / TILE, n / TILE);
    transposeScaled<<<grid, block>>>(in, out, stats, n);
    cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost);
    printf("out[1] = %f\n", h[1]);

    free(h);
    cudaFree(in);
    cudaFree(out);
    cudaFree(stats);
    return 0;
}
