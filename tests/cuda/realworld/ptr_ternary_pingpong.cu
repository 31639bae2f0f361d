//--blockDim=256 --gridDim=16
// Iterated 3-point smoothing with ping-pong buffers picked by a pointer conditional.
__global__ void smooth(float *data, int iters)
{
    __shared__ float bufA[258];
    __shared__ float bufB[258];
    int t = threadIdx.x + 1;
    int g = blockIdx.x * 256 + threadIdx.x;
    bufA[t] = data[g];
    bufB[t] = 0.0f;
    if (threadIdx.x == 0) {
        bufA[0] = bufA[257] = 0.0f;
        bufB[0] = bufB[257] = 0.0f;
    }
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        float *src = (it & 1) ? bufB : bufA;
        float *dst = (it & 1) ? bufA : bufB;
        dst[t] = (src[t - 1] + src[t] + src[t + 1]) / 3.0f;
        __syncthreads();
    }
    data[g] = (iters & 1) ? bufB[t] : bufA[t];
}
