//--blockDim=64 --gridDim=8
// Double-buffered relaxation with the buffers chosen by a pointer `?:`; the barrier between
// one step's stores and the next step's loads is missing.
__global__ void jacobi1d(float *u, int sweeps)
{
    __shared__ float a[66];
    __shared__ float b[66];
    int i = threadIdx.x + 1;
    a[i] = u[blockIdx.x * 64 + threadIdx.x];
    b[i] = a[i];
    if (threadIdx.x == 0) {
        a[0] = b[0] = 0.0f;
        a[65] = b[65] = 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < sweeps; k++) {
        __syncthreads();
        const float *from = (k & 1) ? b : a;
        float *to = (k & 1) ? a : b;
        to[i] = 0.5f * (from[i - 1] + from[i + 1]);
    }
    __syncthreads();
    u[blockIdx.x * 64 + threadIdx.x] = (sweeps & 1) ? b[i] : a[i];
}
