// Image processing on 8-bit grayscale images:
//   boxFilterX / boxFilterY - separable box blur with a running sum, one thread
//                             per row (X pass) or per column (Y pass);
//   sobelShared            - Sobel gradient magnitude from a shared tile with a
//                             one-pixel apron, borders clamped to the image.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>

#define BLOCK_W 16
#define BLOCK_H 16
#define FILTER_THREADS 64

#define checkCudaErrors(err) __checkCudaErrors(err, __FILE__, __LINE__)
inline void __checkCudaErrors(cudaError_t err, const char *file, const int line) {
  if (cudaSuccess != err) {
    fprintf(stderr, "checkCudaErrors() error = %04d \"%s\" from file <%s>, line %i.\n",
            (int)err, cudaGetErrorString(err), file, line);
    exit(EXIT_FAILURE);
  }
}

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

__device__ __forceinline__ float pixelAt(const unsigned char *img, int x, int y, int w, int h) {
  x = clampi(x, 0, w - 1);
  y = clampi(y, 0, h - 1);
  return (float)img[y * w + x];
}

// horizontal running-sum box filter; each thread processes one row
__global__ void boxFilterX(const unsigned char *__restrict__ in, float *__restrict__ out, int w,
                           int h, int r) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= h) return;

  const unsigned char *row = in + y * w;
  float *orow = out + y * w;
  float scale = 1.0f / (float)((r << 1) + 1);

  float t = row[0] * (float)r;
  for (int x = 0; x < r + 1; x++) t += row[min(x, w - 1)];
  orow[0] = t * scale;

  for (int x = 1; x < w; x++) {
    t += row[min(x + r, w - 1)];
    t -= row[max(x - r - 1, 0)];
    orow[x] = t * scale;
  }
}

// vertical running-sum box filter; each thread processes one column
__global__ void boxFilterY(const float *__restrict__ in, unsigned char *__restrict__ out, int w,
                           int h, int r) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;

  float scale = 1.0f / (float)((r << 1) + 1);
  float t = in[x] * (float)r;
  for (int y = 0; y < r + 1; y++) t += in[min(y, h - 1) * w + x];
  out[x] = (unsigned char)fminf(255.0f, t * scale + 0.5f);

  for (int y = 1; y < h; y++) {
    t += in[min(y + r, h - 1) * w + x];
    t -= in[max(y - r - 1, 0) * w + x];
    out[y * w + x] = (unsigned char)fminf(255.0f, t * scale + 0.5f);
  }
}

__global__ void sobelShared(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                            int w, int h, float scale) {
  __shared__ float tile[BLOCK_H + 2][BLOCK_W + 2];

  const int x = blockIdx.x * BLOCK_W + threadIdx.x;
  const int y = blockIdx.y * BLOCK_H + threadIdx.y;
  const int tx = threadIdx.x + 1;
  const int ty = threadIdx.y + 1;

  tile[ty][tx] = pixelAt(in, x, y, w, h);

  // apron: edges
  if (threadIdx.x == 0) tile[ty][0] = pixelAt(in, x - 1, y, w, h);
  if (threadIdx.x == BLOCK_W - 1) tile[ty][BLOCK_W + 1] = pixelAt(in, x + 1, y, w, h);
  if (threadIdx.y == 0) tile[0][tx] = pixelAt(in, x, y - 1, w, h);
  if (threadIdx.y == BLOCK_H - 1) tile[BLOCK_H + 1][tx] = pixelAt(in, x, y + 1, w, h);

  // apron: corners
  if (threadIdx.x == 0 && threadIdx.y == 0) tile[0][0] = pixelAt(in, x - 1, y - 1, w, h);
  if (threadIdx.x == BLOCK_W - 1 && threadIdx.y == 0)
    tile[0][BLOCK_W + 1] = pixelAt(in, x + 1, y - 1, w, h);
  if (threadIdx.x == 0 && threadIdx.y == BLOCK_H - 1)
    tile[BLOCK_H + 1][0] = pixelAt(in, x - 1, y + 1, w, h);
  if (threadIdx.x == BLOCK_W - 1 && threadIdx.y == BLOCK_H - 1)
    tile[BLOCK_H + 1][BLOCK_W + 1] = pixelAt(in, x + 1, y + 1, w, h);

  __syncthreads();

  if (x < w && y < h) {
    float gx = (tile[ty - 1][tx + 1] + 2.0f * tile[ty][tx + 1] + tile[ty + 1][tx + 1]) -
               (tile[ty - 1][tx - 1] + 2.0f * tile[ty][tx - 1] + tile[ty + 1][tx - 1]);
    float gy = (tile[ty + 1][tx - 1] + 2.0f * tile[ty + 1][tx] + tile[ty + 1][tx + 1]) -
               (tile[ty - 1][tx - 1] + 2.0f * tile[ty - 1][tx] + tile[ty - 1][tx + 1]);
    float mag = sqrtf(gx * gx + gy * gy) * scale;
    out[y * w + x] = (unsigned char)fminf(255.0f, mag);
  }
}

static int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }

int main(int argc, char **argv) {
  int width = (argc > 1) ? atoi(argv[1]) : 1920;
  int height = (argc > 2) ? atoi(argv[2]) : 1080;
  int radius = (argc > 3) ? atoi(argv[3]) : 4;
  if (width <= 0 || height <= 0 || radius < 0) {
    fprintf(stderr, "usage: %s [width] [height] [radius]\n", argv[0]);
    exit(EXIT_FAILURE);
  }

  const size_t npix = (size_t)width * height;
  std::vector<unsigned char> h_img(npix), h_out(npix);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      h_img[y * width + x] = (unsigned char)(((x / 32 + y / 32) & 1) * 200 + (rand() % 32));

  unsigned char *d_img, *d_blur, *d_edges;
  float *d_tmp;
  checkCudaErrors(cudaMalloc(&d_img, npix));
  checkCudaErrors(cudaMalloc(&d_blur, npix));
  checkCudaErrors(cudaMalloc(&d_edges, npix));
  checkCudaErrors(cudaMalloc(&d_tmp, npix * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_img, h_img.data(), npix, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));

  boxFilterX<<<iDivUp(height, FILTER_THREADS), FILTER_THREADS>>>(d_img, d_tmp, width, height, radius);
  boxFilterY<<<iDivUp(width, FILTER_THREADS), FILTER_THREADS>>>(d_tmp, d_blur, width, height, radius);

  dim3 threads(BLOCK_W, BLOCK_H);
  dim3 grid(iDivUp(width, BLOCK_W), iDivUp(height, BLOCK_H));
  sobelShared<<<grid, threads>>>(d_blur, d_edges, width, height, 0.25f);
  checkCudaErrors(cudaGetLastError());

  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));

  checkCudaErrors(cudaMemcpy(h_out.data(), d_edges, npix, cudaMemcpyDeviceToHost));
  size_t edgePixels = 0;
  for (size_t i = 0; i < npix; ++i) edgePixels += h_out[i] > 64;
  printf("%dx%d, radius %d: %.3f ms, %zu edge pixels\n", width, height, radius, ms, edgePixels);

  cudaFree(d_img);
  cudaFree(d_blur);
  cudaFree(d_edges);
  cudaFree(d_tmp);
  return 0;
}
