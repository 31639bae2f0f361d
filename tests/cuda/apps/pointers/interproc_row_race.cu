//--blockDim=[16,16] --gridDim=1
// As interproc_row.cu without the barrier.
#define N 16
__device__ float *row(float *base, int r) { return base + r * N; }

__global__ void transpose(const float *in, float *out)
{
    __shared__ float tile[N * N];
    int tx = threadIdx.x, ty = threadIdx.y;
    row(tile, ty)[tx] = in[ty * N + tx];
    out[ty * N + tx] = row(tile, tx)[ty];
}
