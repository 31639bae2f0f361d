// Functions declared but defined elsewhere (another translation unit, a library).
__device__ float gelu(float x);
__device__ void fill_row(float *row, int n);
__device__ int sum_row(const float *row, int n);
__device__ void split(float v, float *hi, float *lo);

__global__ void rows(float *data, int *sums)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    tile[t] = gelu(data[blockIdx.x * 128 + t]);
    if (t == 0)
        fill_row(tile, 128);
    __syncthreads();
    float hi, lo;
    split(tile[t], &hi, &lo);
    sums[blockIdx.x * 128 + t] = sum_row(tile, 128) + (int)(hi + lo);
}
