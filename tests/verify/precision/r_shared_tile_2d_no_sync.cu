//--blockDim=[16,16]
__global__ void blur(const float *in, float *out, int w) {
    __shared__ float t[16][16];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    t[threadIdx.y][threadIdx.x] = in[y * w + x];
    float s = t[threadIdx.y][threadIdx.x];
    if (threadIdx.x > 0) s += t[threadIdx.y][threadIdx.x - 1];
    out[y * w + x] = s;
}
