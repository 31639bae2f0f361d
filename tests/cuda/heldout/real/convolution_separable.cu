/*
 * Separable 2-D convolution: a row pass and a column pass, each staging its
 * tile plus KERNEL_RADIUS-wide halos in shared memory. The filter lives in
 * constant memory. Image width must be a multiple of the row tile and height
 * a multiple of the column tile.
 */
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cassert>
#include <vector>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
template <typename T>
void check(T result, char const *const func, const char *const file, int const line) {
  if (result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\" \n", file, line,
            static_cast<unsigned int>(result), func);
    exit(EXIT_FAILURE);
  }
}

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__constant__ float c_Kernel[KERNEL_LENGTH];

void setConvolutionKernel(const float *h_Kernel) {
  checkCudaErrors(cudaMemcpyToSymbol(c_Kernel, h_Kernel, KERNEL_LENGTH * sizeof(float)));
}

__global__ void convolutionRowsKernel(float *d_Dst, const float *d_Src, int imageW, int imageH,
                                      int pitch) {
  __shared__ float
      s_Data[ROWS_BLOCKDIM_Y][(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];

  // Offset to the left halo edge
  const int baseX = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X +
                    threadIdx.x;
  const int baseY = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;

  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;

  // Load main data
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] = d_Src[i * ROWS_BLOCKDIM_X];
  }

  // Load left halo
#pragma unroll
  for (int i = 0; i < ROWS_HALO_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
  }

  // Load right halo
#pragma unroll
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS;
       i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
    s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
        (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
  }

  // Compute and store results
  __syncthreads();
#pragma unroll
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    float sum = 0;

#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
      sum += c_Kernel[KERNEL_RADIUS - j] *
             s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + j];
    }

    d_Dst[i * ROWS_BLOCKDIM_X] = sum;
  }
}

__global__ void convolutionColumnsKernel(float *d_Dst, const float *d_Src, int imageW,
                                         int imageH, int pitch) {
  __shared__ float s_Data[COLUMNS_BLOCKDIM_X][(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) *
                                                  COLUMNS_BLOCKDIM_Y +
                                              1];

  // Offset to the upper halo edge
  const int baseX = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
  const int baseY = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y +
                    threadIdx.y;
  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;

  // Main data
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];
  }

  // Upper halo
#pragma unroll
  for (int i = 0; i < COLUMNS_HALO_STEPS; i++) {
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
        (baseY >= -i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Lower halo
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++) {
    s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
        (imageH - baseY > i * COLUMNS_BLOCKDIM_Y) ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch] : 0;
  }

  // Compute and store results
  __syncthreads();
#pragma unroll
  for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    float sum = 0;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
      sum += c_Kernel[KERNEL_RADIUS - j] *
             s_Data[threadIdx.x][threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
    }
    d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
  }
}

void convolutionRowsGPU(float *d_Dst, const float *d_Src, int imageW, int imageH) {
  assert(ROWS_BLOCKDIM_X * ROWS_HALO_STEPS >= KERNEL_RADIUS);
  assert(imageW % (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X) == 0);
  assert(imageH % ROWS_BLOCKDIM_Y == 0);

  dim3 blocks(imageW / (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X), imageH / ROWS_BLOCKDIM_Y);
  dim3 threads(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y);

  convolutionRowsKernel<<<blocks, threads>>>(d_Dst, d_Src, imageW, imageH, imageW);
  checkCudaErrors(cudaGetLastError());
}

void convolutionColumnsGPU(float *d_Dst, const float *d_Src, int imageW, int imageH) {
  assert(COLUMNS_BLOCKDIM_Y * COLUMNS_HALO_STEPS >= KERNEL_RADIUS);
  assert(imageW % COLUMNS_BLOCKDIM_X == 0);
  assert(imageH % (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y) == 0);

  dim3 blocks(imageW / COLUMNS_BLOCKDIM_X, imageH / (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y));
  dim3 threads(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y);

  convolutionColumnsKernel<<<blocks, threads>>>(d_Dst, d_Src, imageW, imageH, imageW);
  checkCudaErrors(cudaGetLastError());
}

static void convolutionRowCPU(float *dst, const float *src, const float *k, int w, int h) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float sum = 0;
      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        int d = x + j;
        if (d >= 0 && d < w) sum += src[y * w + d] * k[KERNEL_RADIUS - j];
      }
      dst[y * w + x] = sum;
    }
}

static void convolutionColumnCPU(float *dst, const float *src, const float *k, int w, int h) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float sum = 0;
      for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++) {
        int d = y + j;
        if (d >= 0 && d < h) sum += src[d * w + x] * k[KERNEL_RADIUS - j];
      }
      dst[y * w + x] = sum;
    }
}

int main(int argc, char **argv) {
  const int imageW = (argc > 1) ? atoi(argv[1]) : 3072;
  const int imageH = (argc > 2) ? atoi(argv[2]) : 3072;
  const int iterations = 16;

  if (imageW <= 0 || imageH <= 0 || imageW % (ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X) != 0 ||
      imageH % (COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y) != 0) {
    fprintf(stderr, "image width must be a multiple of %d and height of %d\n",
            ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X, COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y);
    exit(EXIT_FAILURE);
  }

  std::vector<float> h_Kernel(KERNEL_LENGTH), h_Input(imageW * imageH), h_Buffer(imageW * imageH),
      h_OutputCPU(imageW * imageH), h_OutputGPU(imageW * imageH);
  srand(200);
  for (unsigned int i = 0; i < KERNEL_LENGTH; i++) h_Kernel[i] = (float)(rand() % 16);
  for (unsigned i = 0; i < (unsigned)(imageW * imageH); i++) h_Input[i] = (float)(rand() % 16);

  float *d_Input, *d_Output, *d_Buffer;
  checkCudaErrors(cudaMalloc((void **)&d_Input, imageW * imageH * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_Output, imageW * imageH * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_Buffer, imageW * imageH * sizeof(float)));

  setConvolutionKernel(h_Kernel.data());
  checkCudaErrors(cudaMemcpy(d_Input, h_Input.data(), imageW * imageH * sizeof(float),
                             cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));
  for (int i = 0; i < iterations; i++) {
    convolutionRowsGPU(d_Buffer, d_Input, imageW, imageH);
    convolutionColumnsGPU(d_Output, d_Buffer, imageW, imageH);
  }
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  double gpuTime = 0.001 * ms / (double)iterations;
  printf("convolutionSeparable, Throughput = %.4f MPixels/sec, Time = %.5f s, Size = %u Pixels\n",
         (1.0e-6 * (double)(imageW * imageH) / gpuTime), gpuTime, (imageW * imageH));

  checkCudaErrors(cudaMemcpy(h_OutputGPU.data(), d_Output, imageW * imageH * sizeof(float),
                             cudaMemcpyDeviceToHost));
  convolutionRowCPU(h_Buffer.data(), h_Input.data(), h_Kernel.data(), imageW, imageH);
  convolutionColumnCPU(h_OutputCPU.data(), h_Buffer.data(), h_Kernel.data(), imageW, imageH);

  double delta = 0, sum = 0;
  for (unsigned i = 0; i < (unsigned)(imageW * imageH); i++) {
    delta += (h_OutputGPU[i] - h_OutputCPU[i]) * (h_OutputGPU[i] - h_OutputCPU[i]);
    sum += h_OutputCPU[i] * h_OutputCPU[i];
  }
  double L2norm = sqrt(delta / sum);
  printf(" ...Relative L2 norm: %E\n", L2norm);

  checkCudaErrors(cudaFree(d_Buffer));
  checkCudaErrors(cudaFree(d_Output));
  checkCudaErrors(cudaFree(d_Input));
  if (L2norm > 1e-6) {
    printf("Test failed!\n");
    exit(EXIT_FAILURE);
  }
  printf("Test passed\n");
  exit(EXIT_SUCCESS);
}
