// 2-D convolution with a MASK_WIDTH x MASK_WIDTH mask in constant memory.
// Each 16x16 block computes a 16x16 output tile from a shared input tile of
// (16 + MASK_WIDTH - 1)^2 pixels, loaded in two batches of 256 by flattening
// the tile and giving each thread one element per batch.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define MASK_WIDTH 5
#define MASK_RADIUS (MASK_WIDTH / 2)
#define TILE_WIDTH 16
#define W (TILE_WIDTH + MASK_WIDTH - 1)

#define wbCheck(stmt)                                                        \
  do {                                                                       \
    cudaError_t err = stmt;                                                  \
    if (err != cudaSuccess) {                                                \
      fprintf(stderr, "Failed to run stmt %s: %s\n", #stmt,                  \
              cudaGetErrorString(err));                                      \
      exit(-1);                                                              \
    }                                                                        \
  } while (0)

__constant__ float M[MASK_WIDTH * MASK_WIDTH];

__global__ void convolution2D(const float *I, float *P, int height, int width) {
  __shared__ float N_ds[W][W];

  // first batch
  int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;
  int destY = dest / W, destX = dest % W;
  int srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
  int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
  if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)
    N_ds[destY][destX] = I[srcY * width + srcX];
  else
    N_ds[destY][destX] = 0;

  // second batch
  dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;
  destY = dest / W, destX = dest % W;
  srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
  srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
  if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)
    N_ds[destY][destX] = I[srcY * width + srcX];
  else
    N_ds[destY][destX] = 0;
  __syncthreads();

  float accum = 0;
  for (int y = 0; y < MASK_WIDTH; y++)
    for (int x = 0; x < MASK_WIDTH; x++)
      accum += N_ds[threadIdx.y + y][threadIdx.x + x] * M[y * MASK_WIDTH + x];

  int y = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int x = blockIdx.x * TILE_WIDTH + threadIdx.x;
  if (y < height && x < width) P[y * width + x] = accum;
}

int main(int argc, char *argv[]) {
  int imageWidth = (argc > 1) ? atoi(argv[1]) : 1024;
  int imageHeight = (argc > 2) ? atoi(argv[2]) : 768;
  if (imageWidth <= 0 || imageHeight <= 0) {
    fprintf(stderr, "usage: %s [width] [height]\n", argv[0]);
    exit(EXIT_FAILURE);
  }

  std::vector<float> hostInput(imageWidth * imageHeight), hostOutput(imageWidth * imageHeight);
  std::vector<float> hostMask(MASK_WIDTH * MASK_WIDTH);
  for (size_t i = 0; i < hostInput.size(); ++i) hostInput[i] = (float)(rand() % 256) / 255.0f;
  float msum = 0;
  for (int i = 0; i < MASK_WIDTH * MASK_WIDTH; ++i) msum += (hostMask[i] = (float)(1 + rand() % 4));
  for (int i = 0; i < MASK_WIDTH * MASK_WIDTH; ++i) hostMask[i] /= msum;

  float *deviceInput, *deviceOutput;
  wbCheck(cudaMalloc((void **)&deviceInput, imageWidth * imageHeight * sizeof(float)));
  wbCheck(cudaMalloc((void **)&deviceOutput, imageWidth * imageHeight * sizeof(float)));
  wbCheck(cudaMemcpy(deviceInput, hostInput.data(), imageWidth * imageHeight * sizeof(float),
                     cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpyToSymbol(M, hostMask.data(), MASK_WIDTH * MASK_WIDTH * sizeof(float)));

  dim3 dimGrid((imageWidth + TILE_WIDTH - 1) / TILE_WIDTH, (imageHeight + TILE_WIDTH - 1) / TILE_WIDTH);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);

  cudaEvent_t start, stop;
  wbCheck(cudaEventCreate(&start));
  wbCheck(cudaEventCreate(&stop));
  wbCheck(cudaEventRecord(start));
  convolution2D<<<dimGrid, dimBlock>>>(deviceInput, deviceOutput, imageHeight, imageWidth);
  wbCheck(cudaGetLastError());
  wbCheck(cudaEventRecord(stop));
  wbCheck(cudaEventSynchronize(stop));
  float ms;
  wbCheck(cudaEventElapsedTime(&ms, start, stop));

  wbCheck(cudaMemcpy(hostOutput.data(), deviceOutput, imageWidth * imageHeight * sizeof(float),
                     cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int y = 0; y < imageHeight; ++y)
    for (int x = 0; x < imageWidth; ++x) {
      float s = 0;
      for (int my = 0; my < MASK_WIDTH; ++my)
        for (int mx = 0; mx < MASK_WIDTH; ++mx) {
          int yy = y + my - MASK_RADIUS, xx = x + mx - MASK_RADIUS;
          if (yy >= 0 && yy < imageHeight && xx >= 0 && xx < imageWidth)
            s += hostInput[yy * imageWidth + xx] * hostMask[my * MASK_WIDTH + mx];
        }
      if (fabsf(s - hostOutput[y * imageWidth + x]) > 1e-4f) ++bad;
    }
  printf("%dx%d image: %.3f ms, %d mismatches\n", imageWidth, imageHeight, ms, bad);

  cudaFree(deviceInput);
  cudaFree(deviceOutput);
  return bad ? 1 : 0;
}
