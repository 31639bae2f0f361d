//--blockDim=256 --gridDim=1
// Column means of a 32 x 256 matrix passed as a two-dimensional array parameter.
__global__ void colMeans(const float m[][256], float means[256])
{
    float s = 0.0f;
    for (int r = 0; r < 32; ++r)
        s += m[r][threadIdx.x];
    means[threadIdx.x] = s / 32.0f;
}
