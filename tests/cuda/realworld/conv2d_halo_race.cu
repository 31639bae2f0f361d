//--blockDim=[16,16] --gridDim=[8,8]
// 3x3 box blur of a 128 x 128 image through an 18 x 18 shared tile; the halo loads and the
// filter are not separated.
#define IMG 128

__global__ void blur3x3(const float *in, float *out)
{
    __shared__ float tile[18][18];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    for (int dy = threadIdx.y; dy < 18; dy += 16)
        for (int dx = threadIdx.x; dx < 18; dx += 16) {
            int gx = min(max(blockIdx.x * 16 + dx - 1, 0), IMG - 1);
            int gy = min(max(blockIdx.y * 16 + dy - 1, 0), IMG - 1);
            tile[dy][dx] = in[gy * IMG + gx];
        }
    float s = 0.0f;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            s += tile[threadIdx.y + i][threadIdx.x + j];
    out[y * IMG + x] = s / 9.0f;
}
