//--blockDim=128 --gridDim=1
// A pointer copied into another (and to const): both name the same shared tile.
__global__ void rotate(const float *in, float *out)
{
    __shared__ float tile[128];
    float *w = tile;
    const float *r = w;
    w[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = r[(threadIdx.x + 1) % 128];
}
