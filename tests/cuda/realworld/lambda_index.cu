//--blockDim=[16,16] --gridDim=[8,8]
// Image inversion with a capturing lambda for 2-D indexing.
#define W 128

__global__ void invert(const unsigned char *src, unsigned char *dst)
{
    auto at = [&](int x, int y) { return y * W + x; };
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    dst[at(x, y)] = 255 - src[at(x, y)];
}
