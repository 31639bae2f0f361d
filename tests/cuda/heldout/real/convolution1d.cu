// 1-D convolution with the mask in constant memory.
//   convolution_1D_basic_kernel: every input read from global memory;
//   convolution_1D_tiled_kernel: the block's input tile plus left and right
//   halo cells are staged in shared memory first.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define MAX_MASK_WIDTH 11
#define TILE_SIZE 256

#define cudaCheck(stmt)                                                      \
  do {                                                                       \
    cudaError_t err = stmt;                                                  \
    if (err != cudaSuccess) {                                                \
      fprintf(stderr, "Failed to run stmt %s (%s)\n", #stmt,                 \
              cudaGetErrorString(err));                                      \
      exit(EXIT_FAILURE);                                                    \
    }                                                                        \
  } while (0)

__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_basic_kernel(const float *N, float *P, int Mask_Width,
                                            int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float Pvalue = 0;
  int N_start_point = i - (Mask_Width / 2);
  for (int j = 0; j < Mask_Width; j++) {
    if (N_start_point + j >= 0 && N_start_point + j < Width) {
      Pvalue += N[N_start_point + j] * M[j];
    }
  }
  if (i < Width) P[i] = Pvalue;
}

__global__ void convolution_1D_tiled_kernel(const float *N, float *P, int Mask_Width,
                                            int Width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];

  int n = Mask_Width / 2;

  int halo_index_left = ((int)blockIdx.x - 1) * (int)blockDim.x + (int)threadIdx.x;
  if (threadIdx.x >= blockDim.x - n) {
    N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0 : N[halo_index_left];
  }

  N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0;

  int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x < n) {
    N_ds[n + blockDim.x + threadIdx.x] =
        (halo_index_right >= Width) ? 0 : N[halo_index_right];
  }

  __syncthreads();

  float Pvalue = 0;
  for (int j = 0; j < Mask_Width; j++) {
    Pvalue += N_ds[threadIdx.x + j] * M[j];
  }
  if (i < Width) P[i] = Pvalue;
}

int main(int argc, char *argv[]) {
  int width = (argc > 1) ? atoi(argv[1]) : (1 << 20);
  int maskWidth = (argc > 2) ? atoi(argv[2]) : 7;

  if (width <= 0) {
    fprintf(stderr, "width must be positive\n");
    exit(EXIT_FAILURE);
  }
  if (maskWidth < 1 || maskWidth > MAX_MASK_WIDTH || maskWidth % 2 == 0) {
    fprintf(stderr, "mask width must be odd and at most %d\n", MAX_MASK_WIDTH);
    exit(EXIT_FAILURE);
  }

  std::vector<float> hN(width), hP(width), hRef(width), hM(maskWidth);
  for (int i = 0; i < width; ++i) hN[i] = sinf(i * 0.01f);
  for (int j = 0; j < maskWidth; ++j) hM[j] = 1.0f / maskWidth;

  for (int i = 0; i < width; ++i) {
    float s = 0;
    for (int j = 0; j < maskWidth; ++j) {
      int k = i - maskWidth / 2 + j;
      if (k >= 0 && k < width) s += hN[k] * hM[j];
    }
    hRef[i] = s;
  }

  float *dN, *dP;
  cudaCheck(cudaMalloc(&dN, width * sizeof(float)));
  cudaCheck(cudaMalloc(&dP, width * sizeof(float)));
  cudaCheck(cudaMemcpy(dN, hN.data(), width * sizeof(float), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpyToSymbol(M, hM.data(), maskWidth * sizeof(float)));

  dim3 dimBlock(TILE_SIZE);
  dim3 dimGrid((width + TILE_SIZE - 1) / TILE_SIZE);

  cudaEvent_t start, stop;
  cudaCheck(cudaEventCreate(&start));
  cudaCheck(cudaEventCreate(&stop));

  for (int variant = 0; variant < 2; ++variant) {
    cudaCheck(cudaEventRecord(start));
    if (variant == 0)
      convolution_1D_basic_kernel<<<dimGrid, dimBlock>>>(dN, dP, maskWidth, width);
    else
      convolution_1D_tiled_kernel<<<dimGrid, dimBlock>>>(dN, dP, maskWidth, width);
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaEventRecord(stop));
    cudaCheck(cudaEventSynchronize(stop));
    float ms;
    cudaCheck(cudaEventElapsedTime(&ms, start, stop));

    cudaCheck(cudaMemcpy(hP.data(), dP, width * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < width; ++i)
      if (fabsf(hP[i] - hRef[i]) > 1e-5f) ++bad;
    printf("%s: %.3f ms, %d mismatches\n", variant ? "tiled" : "basic", ms, bad);
  }

  cudaFree(dN);
  cudaFree(dP);
  return 0;
}
