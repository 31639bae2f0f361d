// Texture fetches: a legacy texture reference and a texture object. Both are reads of memory no
// thread writes, so they are values only (no access).
texture<float, 1, cudaReadModeElementType> table;

__global__ void sample(cudaTextureObject_t img, float *out, int width)
{
    __shared__ float row[256];
    int x = threadIdx.x;
    row[x] = tex1Dfetch(table, x) + tex2D<float>(img, x + 0.5f, blockIdx.x + 0.5f);
    __syncthreads();
    out[blockIdx.x * width + x] = row[255 - x];
}
