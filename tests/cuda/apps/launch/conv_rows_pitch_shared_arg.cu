// Separable image convolution, row pass (SDK sample style): each 16x16 block stages its pixels
// plus a KERNEL_RADIUS halo in shared memory. The image is dense, so main() passes imageW as the
// row pitch too.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(call)                                                             \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                    __LINE__);                                                            \
            exit(EXIT_FAILURE);                                                           \
        }                                                                                 \
    } while (0)

#define KERNEL_RADIUS 4
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 16

__global__ void convRows(float *dst, const float *src, const float *weights, int imageW, int imageH,
                         int pitch)
{
    __shared__ float row[ROWS_BLOCKDIM_Y][ROWS_BLOCKDIM_X + 2 * KERNEL_RADIUS];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int x = blockIdx.x * ROWS_BLOCKDIM_X + tx;
    const int y = blockIdx.y * ROWS_BLOCKDIM_Y + ty;

    row[ty][tx + KERNEL_RADIUS] = src[y * pitch + x];
    if (tx < KERNEL_RADIUS) {
        const int left = x - KERNEL_RADIUS;
        const int right = x + ROWS_BLOCKDIM_X;
        row[ty][tx] = left >= 0 ? src[y * pitch + left] : 0.0f;
        row[ty][tx + ROWS_BLOCKDIM_X + KERNEL_RADIUS] = right < imageW ? src[y * pitch + right] : 0.0f;
    }
    __syncthreads();

    float sum = 0.0f;
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
        sum += weights[KERNEL_RADIUS - j] * row[ty][tx + KERNEL_RADIUS + j];
    dst[y * pitch + x] = sum;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s imageW imageH\n", argv[0]);
        return EXIT_FAILURE;
    }
    const int imageW = atoi(argv[1]);
    const int imageH = atoi(argv[2]);
    if (imageW <= 0 || imageH <= 0 || imageW % ROWS_BLOCKDIM_X != 0 || imageH % ROWS_BLOCKDIM_Y != 0) {
        fprintf(stderr, "image size must be a positive multiple of %dx%d\n", ROWS_BLOCKDIM_X,
                ROWS_BLOCKDIM_Y);
        exit(EXIT_FAILURE);
    }
    printf("convolving a %d x %d image, radius %d\n", imageW, imageH, KERNEL_RADIUS);

    const size_t imageBytes = (size_t)imageW * imageH * sizeof(float);
    float *h_src = (float *)malloc(imageBytes);
    float h_weights[KERNEL_LENGTH];
    for (int i = 0; i < imageW * imageH; ++i)
        h_src[i] = (float)(rand() % 256);
    float wsum = 0.0f;
    for (int i = 0; i < KERNEL_LENGTH; ++i) {
        h_weights[i] = (float)(KERNEL_RADIUS + 1 - abs(i - KERNEL_RADIUS));
        wsum += h_weights[i];
    }
    for (int i = 0; i < KERNEL_LENGTH; ++i)
        h_weights[i] /= wsum;

    float *d_src, *d_dst, *d_weights;
    checkCudaErrors(cudaMalloc((void **)&d_src, imageBytes));
    checkCudaErrors(cudaMalloc((void **)&d_dst, imageBytes));
    checkCudaErrors(cudaMalloc((void **)&d_weights, KERNEL_LENGTH * sizeof(float)));
    checkCudaErrors(cudaMemcpy(d_src, h_src, imageBytes, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_weights, h_weights, KERNEL_LENGTH * sizeof(float), cudaMemcpyHostToDevice));

    dim3 blocks(imageW / ROWS_BLOCKDIM_X, imageH / ROWS_BLOCKDIM_Y);
    dim3 threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);
    convRows<<<blocks, threads>>>(d_dst, d_src, d_weights, imageW, imageH, imageW);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());

    checkCudaErrors(cudaMemcpy(h_src, d_dst, imageBytes, cudaMemcpyDeviceToHost));
    printf("dst[0] = %f\n", h_src[0]);

    checkCudaErrors(cudaFree(d_src));
    checkCudaErrors(cudaFree(d_dst));
    checkCudaErrors(cudaFree(d_weights));
    free(h_src);
    return EXIT_SUCCESS;
}
