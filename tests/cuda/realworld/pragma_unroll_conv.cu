//--blockDim=256 --gridDim=16
// 1-D convolution with a 9-tap constant mask and a shared tile with halos.
#define R 4
__constant__ float mask[2 * R + 1];

__global__ void conv1d(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 2 * R];
    int g = blockIdx.x * 256 + threadIdx.x;
    tile[threadIdx.x + R] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < R) {
        int l = g - R, r = g + 256;
        tile[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
        tile[threadIdx.x + 256 + R] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll 9
    for (int k = 0; k < 2 * R + 1; ++k)
        acc += tile[threadIdx.x + k] * mask[k];
    #pragma unroll
    for (int rep = 0; rep < 1; ++rep)
        if (g < n)
            out[g] = acc;
}
