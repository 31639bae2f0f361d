// 2x2 max pooling, stride 2, NCHW: a block of 16x16 threads stages a 32x32 input tile (four
// coalesced passes) and each thread reduces one 2x2 window of it.
#include <cuda_runtime.h>
#include <cstdio>

#define PLANES 256
#define H 256
#define W 256
#define OT 16
#define IT (2 * OT)

__global__ void maxPool2x2(const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[IT][IT];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const float *plane = in + (size_t)blockIdx.z * H * W;
    const int iy0 = blockIdx.y * IT;
    const int ix0 = blockIdx.x * IT;

#pragma unroll
    for (int dy = 0; dy < IT; dy += OT)
#pragma unroll
        for (int dx = 0; dx < IT; dx += OT)
            tile[ty + dy][tx + dx] = plane[(iy0 + ty + dy) * W + ix0 + tx + dx];
    __syncthreads();

    float m = fmaxf(fmaxf(tile[2 * ty][2 * tx], tile[2 * ty][2 * tx + 1]),
                    fmaxf(tile[2 * ty + 1][2 * tx], tile[2 * ty + 1][2 * tx + 1]));
    const int oy = blockIdx.y * OT + ty;
    const int ox = blockIdx.x * OT + tx;
    out[(size_t)blockIdx.z * (H / 2) * (W / 2) + oy * (W / 2) + ox] = m;
}

int main()
{
    float *d_in, *d_out;
    cudaMalloc(&d_in, (size_t)PLANES * H * W * sizeof(float));
    cudaMalloc(&d_out, (size_t)PLANES * (H / 2) * (W / 2) * sizeof(float));
    cudaMemset(d_in, 0, (size_t)PLANES * H * W * sizeof(float));
    dim3 block(OT, OT);
    dim3 grid(W / IT, H / IT, PLANES);
    maxPool2x2<<<grid, block>>>(d_in, d_out);
    cudaDeviceSynchronize();
    printf("maxpool2x2 done\n");
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
