//--blockDim=[16,16] --gridDim=[16,16]
// Naive transpose straight through global memory (256 x 256).
__global__ void transposeNaive(float *odata, const float *idata)
{
    const int width = 256;
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    odata[x * width + y] = idata[y * width + x];
}
