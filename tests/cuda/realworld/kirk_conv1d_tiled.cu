//--blockDim=128 --gridDim=32
// Tiled 1-D convolution with halo cells loaded by the first and last threads (textbook style).
#define MASK_WIDTH 5
#define TILE_SIZE 128
__constant__ float M[MASK_WIDTH];

__global__ void convolution_1D_tiled_kernel(float *N, float *P, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float N_ds[TILE_SIZE + MASK_WIDTH - 1];
    int n = MASK_WIDTH / 2;
    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n)
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
    N_ds[n + threadIdx.x] = N[blockIdx.x * blockDim.x + threadIdx.x];
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n)
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0 : N[halo_index_right];
    __syncthreads();
    float Pvalue = 0;
    for (int j = 0; j < MASK_WIDTH; j++)
        Pvalue += N_ds[threadIdx.x + j] * M[j];
    P[i] = Pvalue;
}
