// CSR sparse matrix-vector product, one warp per row (the "vector" kernel of sparse libraries):
// each warp sums its row's partial products with a halving ladder in its own slice of shared
// memory. Written without the ladder's barriers, as pre-Volta code did: `fix` puts a
// `__syncwarp()` between the steps, since only lanes of one warp share a slice.
#include <cuda_runtime.h>
const int WARPS_PER_BLOCK = 8;

__global__ void spmv_csr_vector(int rows, const int *__restrict__ rowPtr, const int *__restrict__ cols,
                                const float *__restrict__ vals, const float *__restrict__ x, float *__restrict__ y) {
    __shared__ float sums[WARPS_PER_BLOCK * 32];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = tid / 32;
    int lane = threadIdx.x & 31;
    if (warp >= rows) return;
    float s = 0.0f;
    for (int j = rowPtr[warp] + lane; j < rowPtr[warp + 1]; j += 32)
        s += vals[j] * x[cols[j]];
    sums[threadIdx.x] = s;
    if (lane < 16) sums[threadIdx.x] += sums[threadIdx.x + 16];
    if (lane < 8) sums[threadIdx.x] += sums[threadIdx.x + 8];
    if (lane < 4) sums[threadIdx.x] += sums[threadIdx.x + 4];
    if (lane < 2) sums[threadIdx.x] += sums[threadIdx.x + 2];
    if (lane == 0) y[warp] = sums[threadIdx.x] + sums[threadIdx.x + 1];
}

int main(int argc, char **argv) {
    int rows = argc > 1 ? 1000 : 2000;
    int *rp, *c; float *v, *x, *y;
    cudaMalloc(&rp, (rows + 1) * sizeof(int));
    cudaMalloc(&c, rows * 64 * sizeof(int));
    cudaMalloc(&v, rows * 64 * sizeof(float));
    cudaMalloc(&x, rows * sizeof(float));
    cudaMalloc(&y, rows * sizeof(float));
    dim3 block(WARPS_PER_BLOCK * 32);
    dim3 grid((rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
    spmv_csr_vector<<<grid, block>>>(rows, rp, c, v, x, y);
    return 0;
}
