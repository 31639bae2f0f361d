//--blockDim=128 --gridDim=1
// As copy_alias.cu without the barrier: the copy r reads what w's neighbour writes.
__global__ void rotate(const float *in, float *out)
{
    __shared__ float tile[128];
    float *w = tile;
    const float *r = w;
    w[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = r[(threadIdx.x + 1) % 128];
}
