//--blockDim=[32,8] --gridDim=[4,4]
// Transpose with type conversion (e.g. half to float); generic, not instantiated here.
// The matrix is 128 x 128; each thread moves 4 elements.
#define DIM 128

template <typename TIn, typename TOut>
__global__ void transposeConvert(const TIn *in, TOut *out)
{
    __shared__ TOut tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = (TOut)in[(y + j) * DIM + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * DIM + x] = tile[threadIdx.x][threadIdx.y + j];
}
