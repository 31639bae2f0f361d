//--blockDim=256 --gridDim=64
// 7-point 1-D stencil: each block stages its 256 elements plus RADIUS halo elements on each side
// in shared memory (the first RADIUS threads load the halos), then applies the weights.
#define RADIUS 3
#define BLOCK_SIZE 256
#define N (BLOCK_SIZE * 64) // outputs; the input holds N + 2 * RADIUS elements

__constant__ float c_weights[2 * RADIUS + 1];

__global__ void stencil1d(float *out, const float *in)
{
    __shared__ float temp[BLOCK_SIZE + 2 * RADIUS];

    const int gindex = blockIdx.x * BLOCK_SIZE + threadIdx.x;
    const int lindex = threadIdx.x + RADIUS;

    temp[lindex] = in[gindex + RADIUS];
    if (threadIdx.x < RADIUS) {
        temp[lindex - RADIUS] = in[gindex];
        temp[lindex + BLOCK_SIZE] = in[gindex + BLOCK_SIZE + RADIUS];
    }

    __syncthreads();

    if (gindex >= N) return;
    float result = 0.0f;
#pragma unroll
    for (int offset = -RADIUS; offset <= RADIUS; offset++)
        result += c_weights[offset + RADIUS] * temp[lindex + offset];
    out[gindex] = result;
}
