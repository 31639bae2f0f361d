// Work-efficient (Blelloch) exclusive scan of one block's tile in shared memory, textbook style:
// an up-sweep that doubles `offset` while `d` halves, then a down-sweep that does the reverse.
// Bank-conflict padding is left out; the tile is 2 * THREADS elements.
#include <cuda_runtime.h>

#define THREADS 256
#define TILE (2 * THREADS)

__global__ void prescan(float *out, const float *in, int n)
{
    __shared__ float temp[TILE];
    int tid = threadIdx.x;
    int base = blockIdx.x * TILE;
    temp[2 * tid] = (base + 2 * tid < n) ? in[base + 2 * tid] : 0.0f;
    temp[2 * tid + 1] = (base + 2 * tid + 1 < n) ? in[base + 2 * tid + 1] : 0.0f;

    int offset = 1;
    for (int d = TILE >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0)
        temp[TILE - 1] = 0.0f;
    for (int d = 1; d < TILE; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            float t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n)
        out[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n)
        out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

int main()
{
    int n = 128 * TILE;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    prescan<<<128, THREADS>>>(d_out, d_in, n);
    cudaDeviceSynchronize();
    return 0;
}
