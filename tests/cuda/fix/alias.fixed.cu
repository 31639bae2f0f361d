//--blockDim=16,16 --gridDim=1
__global__ void transpose(const float *in, float *out) {
    __shared__ float tile[16][17];
    unsigned int tx = threadIdx.x, ty = threadIdx.y;
    float *row = &tile[ty][0];
    row[tx] = in[ty * 16 + tx];
    __syncthreads();
    const float *col = tile[tx];
    out[ty * 16 + tx] = col[ty];
}
